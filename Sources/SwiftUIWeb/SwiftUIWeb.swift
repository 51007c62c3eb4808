// SwiftUIWeb: under construction; see docs/ARCHITECTURE.md.
