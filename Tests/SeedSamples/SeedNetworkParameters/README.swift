// The network seed's sample: a connection with customized parameters (5:07). Its code is extracted from ../shared/seeds at build time by the
// SeedSamples plugin, with the fixes listed in seed-sample.json; nothing of it is kept here.
