// OpenHealthKit: under construction; see docs/ARCHITECTURE.md.
