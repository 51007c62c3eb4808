// The network seed's sample: a connection with TLS (4:04). Its code is extracted from ../shared/seeds at build time by the
// SeedSamples plugin, with the fixes listed in seed-sample.json; nothing of it is kept here.
