"""`python -m risk_client`: the `risk` command line."""

from risk_client.cli import main

raise SystemExit(main())
