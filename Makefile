PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: venv run serve hall test lint coverage bench clean fuzz messages engine-messages simulate

venv: $(VENV)/.installed

# The stamp reinstalls only when a requirements file changes.
$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# The development server on PORT (8000), with the demo tournament loaded unless DEMO=no.
PORT ?= 8000
DEMO ?= yes
run: venv
	$(BIN)/python manage.py migrate --noinput
	$(if $(filter no,$(DEMO)),,$(BIN)/python manage.py loaddemo --port $(PORT))
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Production on one machine: DEBUG off, SECRET_KEY required, gunicorn on PORT (8000) with
# WEB_CONCURRENCY workers (2); migrations applied and static files collected at start.
serve: venv
	$(BIN)/python -m config.serve

# The venue laptop: the hall's Wi-Fi, the address players open printed with a QR code.
hall: venv
	$(BIN)/python -m config.serve --hall

test: venv
	$(BIN)/python -m pytest

# mypy checks the whole app (pyproject.toml): the pure packages (scoring/, tournament/engine/,
# tournament/interchange/) in strict mode, the Django side through the django-stubs plugin;
# migrations are excluded. lint-imports holds the packages to their order (pyproject.toml's
# importlinter contracts: layers, no cycles, no Django in the pure packages).
lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy scoring tournament config
	$(BIN)/lint-imports

coverage: venv
	$(BIN)/python -m pytest --cov=scoring --cov-report=term-missing

bench: venv
	@set -e; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		$(BIN)/python "$$script"; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache htmlcov .coverage staticfiles hall-qr.html
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +

# A long run of the event simulator (SIM_EVENTS events from SIM_SEED) on a database of its own:
# every violation with its seed and step, then "N events, M steps, K violations".
SIM_EVENTS ?= 20
SIM_SEED ?= 1
simulate: venv
	rm -f simulate.sqlite3
	DATABASE_URL=sqlite:///simulate.sqlite3 $(BIN)/python manage.py migrate --noinput -v0
	DATABASE_URL=sqlite:///simulate.sqlite3 $(BIN)/python manage.py simulate --events $(SIM_EVENTS) --seed $(SIM_SEED)

# A long fuzzing run of every reader (FUZZ_SECONDS each); prints crashes with minimal reproducers.
FUZZ_SECONDS ?= 60
fuzz: venv
	$(BIN)/python -m fuzz --seconds $(FUZZ_SECONDS)

# Catalogs. The engine's own (stdlib gettext, domain spread-engine, in scoring/locale): the template
# written from the message tables, merged into each language's .po, compiled to the .mo that is
# committed beside it (tests/scoring/test_i18n.py holds them complete and in step).
ENGINE_LANGUAGES := id ko fi fa
ENGINE_LOCALE := scoring/locale
engine-messages: venv
	$(BIN)/python -m tournament.engine.catalog
	@set -e; for lang in $(ENGINE_LANGUAGES); do \
		po=$(ENGINE_LOCALE)/$$lang/LC_MESSAGES/spread-engine.po; \
		msgmerge --quiet --update --backup=none --no-fuzzy-matching --no-wrap \
			$$po $(ENGINE_LOCALE)/spread-engine.pot; \
		msgfmt --check --output-file=$${po%.po}.mo $$po; \
	done


# The interface's catalogs (locale/<lang>/LC_MESSAGES/django.po), after the engine's: gather
# every marked string, then compile the .mo files, which are committed so that `make run` needs
# no gettext tools (tests/tournament/core/test_i18n_catalogs.py holds them complete and in step).
LANGUAGES := id ko fi fa
messages: engine-messages
	$(BIN)/python manage.py makemessages $(addprefix -l ,$(LANGUAGES)) --no-obsolete --no-wrap \
		-i ".venv/*" -i "tests/*" -i "fuzz/*" -i "bench/*" -i "scoring/*" \
		-i "tournament/engine/*" -i "tournament/interchange/*" -i "staticfiles/*"
	$(BIN)/python manage.py compilemessages $(addprefix -l ,$(LANGUAGES)) -i scoring
