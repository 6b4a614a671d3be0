"""The ``fiftysix`` command's subcommands: one module per group, each with ``register(subparsers)``."""
