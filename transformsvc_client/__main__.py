"""`python -m transformsvc_client ...`: the `transformsvc` command."""

from transformsvc_client.cli import main

raise SystemExit(main())
