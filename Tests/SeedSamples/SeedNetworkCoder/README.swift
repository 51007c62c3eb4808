// The network seed's sample: the Tic-Tac-Toe messages with Coder, and the listener (12:50, 13:13, 13:53, 15:16). Its code is extracted from ../shared/seeds at build time by the
// SeedSamples plugin, with the fixes listed in seed-sample.json; nothing of it is kept here.
