// The network seed's sample: receiving a length-prefixed image in chunks (8:29). Its code is extracted from ../shared/seeds at build time by the
// SeedSamples plugin, with the fixes listed in seed-sample.json; nothing of it is kept here.
