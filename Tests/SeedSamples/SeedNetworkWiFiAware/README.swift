// The network seed's Wi-Fi Aware sample (17:39), built against Orchard's WiFiAware module. Its code is extracted
// from ../shared/seeds at build time by the SeedSamples plugin, with the fixes listed in seed-sample.json; nothing of
// it is kept here.
