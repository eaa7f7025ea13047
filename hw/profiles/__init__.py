"""The board profiles shipped with the package (TOML files; see `dvonn_hw.profile`)."""
