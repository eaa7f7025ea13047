"""One module per `dvonn-board` subcommand (see `firmware_py.cli`)."""
