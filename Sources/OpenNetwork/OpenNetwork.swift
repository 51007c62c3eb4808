// OpenNetwork: under construction; see docs/ARCHITECTURE.md.
