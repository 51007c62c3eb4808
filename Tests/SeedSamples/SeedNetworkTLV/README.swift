// The network seed's sample: the Tic-Tac-Toe messages over TLV (11:06, 11:24, 11:53). Its code is extracted from ../shared/seeds at build time by the
// SeedSamples plugin, with the fixes listed in seed-sample.json; nothing of it is kept here.
