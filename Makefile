# transformsvc — the two quick-start commands are `make run` and `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
export PORT ?= 8761

.PHONY: install run test lint bench clean

$(VENV)/.installed: pyproject.toml
	transformsvc/scripts/install.sh "$(VENV)"
	touch $@

install: $(VENV)/.installed

run: install
	transformsvc/scripts/run.sh

test: install
	transformsvc/scripts/test.sh $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .

bench: install
	transformsvc/scripts/bench.sh

clean:
	rm -rf $(VENV) var/tmp var/pgtest
