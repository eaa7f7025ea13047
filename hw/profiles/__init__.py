"""The board profiles shipped with the package (TOML files; see `hw.profile`)."""
