PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: venv run serve hall test lint coverage bench clean fuzz messages

venv: $(VENV)/.installed

# The stamp reinstalls only when a requirements file changes.
$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py loaddemo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# Production on one machine: DEBUG off, SECRET_KEY required, gunicorn on PORT (8000) with
# WEB_CONCURRENCY workers (2); migrations applied and static files collected at start.
serve: venv
	$(BIN)/python -m config.serve

# The venue laptop: the hall's Wi-Fi, the address players open printed with a QR code.
hall: venv
	$(BIN)/python -m config.serve --hall

test: venv
	$(BIN)/python -m pytest

# The packages mypy checks (strict, see pyproject.toml): one a line, to add more.
TYPED := \
	tournament/engine \
	tournament/interchange \
	scoring

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy $(TYPED)

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

# A long fuzzing run of every reader (FUZZ_SECONDS each); prints crashes with minimal reproducers.
FUZZ_SECONDS ?= 60
fuzz: venv
	$(BIN)/python -m fuzz --seconds $(FUZZ_SECONDS)

# The interface's catalogs (locale/<lang>/LC_MESSAGES/django.po): gather every marked string,
# then compile the .mo files, which are committed so that `make run` needs no gettext tools.
# The engines (scoring/, tournament/engine/, tournament/interchange/) keep their own catalog.
LANGUAGES := id ko fi fa
messages: venv
	$(BIN)/python manage.py makemessages $(addprefix -l ,$(LANGUAGES)) --no-obsolete \
		-i ".venv/*" -i "tests/*" -i "fuzz/*" -i "bench/*" -i "scoring/*" \
		-i "tournament/engine/*" -i "tournament/interchange/*" -i "staticfiles/*"
	$(BIN)/python manage.py compilemessages $(addprefix -l ,$(LANGUAGES))
