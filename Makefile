# nasui: `make run` serves the panel, `make test` runs the whole fast suite.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Debian's own Python (3.11 on bookworm), as on the appliance.
PYTHON ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
export NASUI_DATA_DIR ?= $(CURDIR)/var
# samba: `make run` serves SMB from a private smbd; the wrappers keep it off the host's accounts,
# and the VFS modules give shares "Previous versions" (shadow_copy2), macOS support and audit.
# smartmontools: smartctl --json (7.x) reads the disks' SMART health, temperature and self-tests.
# openssh-client: replication reaches other boxes over ssh (the tests run their own sshd).
RUN_DEBS := python3-venv redis-server redis-tools tgt samba samba-vfs-modules libnss-wrapper libuid-wrapper smartmontools fio openssh-client nut-server nut-client
TEST_DEBS := chromium docker-compose libiscsi-bin qemu-utils qemu-block-extra samba smbclient libnss-wrapper libuid-wrapper samba-vfs-modules libnfs-utils openssh-server oathtool prometheus nut-server nut-client
NODE_DEBS := nodejs npm
# UEFI firmware: test-appliance boots the image under OVMF as well as SeaBIOS.
APPLIANCE_TEST_DEBS := ovmf qemu-system-x86

.PHONY: help run test lint fmt pytest deps dev-deps sysdeps test-sysdeps vendor migrate clean test-zfs zfs-fixtures

help:
	@echo "make run    install what is missing, then serve http://127.0.0.1:8000 (web, worker, beat, Redis)"
	@echo "make test   the same set-up, then lint and the whole fast suite (browser tests included)"
	@echo "make test-zfs   the tests that need real OpenZFS, in a qemu VM (cached build)"

sysdeps:
	@command -v npm >/dev/null || scripts/sysdeps.sh $(NODE_DEBS)
	@scripts/sysdeps.sh $(RUN_DEBS)

test-sysdeps: sysdeps
	@scripts/sysdeps.sh $(TEST_DEBS)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.run-installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements-dev.txt requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

static/vendor/.copied: node_modules/.installed scripts/vendor.sh
	scripts/vendor.sh
	touch $@

vendor: static/vendor/.copied

deps: sysdeps $(VENV)/.run-installed vendor

dev-deps: test-sysdeps $(VENV)/.dev-installed vendor

# A config restore confirmed in the panel is put in place first (before anything opens the
# database); the data folder and database are the panel's defaults unless NASUI_* say otherwise.
migrate: deps
	$(BIN)/python -m system.backups.engine.files apply "$${NASUI_DATA_DIR:-$(CURDIR)/var}" \
		"$$(echo "$${NASUI_DATABASE_URL:-sqlite:///$${NASUI_DATA_DIR:-$(CURDIR)/var}/nasui.sqlite3}" | sed 's|^sqlite://||')"
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py ensure_admin
	$(BIN)/python manage.py collectstatic --noinput -v 0

# Plain HTTP on loopback: cookies cannot be marked Secure here (the appliance serves HTTPS).
run: export NASUI_HTTPS ?= 0
run: migrate
	@echo "Serving nasui on http://$${NASUI_BIND:-127.0.0.1:8000}  (Ctrl-C stops everything)"
	$(BIN)/honcho -f Procfile start $$(scripts/redis-if-needed.sh) web worker beat iscsi smb ups

lint: dev-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports

fmt: dev-deps
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

pytest: dev-deps
	$(BIN)/pytest $(PYTEST_ARGS)

test: lint pytest

clean:
	rm -rf $(VENV) node_modules static/vendor var test-artifacts

# Real OpenZFS in a qemu VM (TCG): builds and caches the VM under ~/.cache/nasui/zfsvm on first use.
# The host helper runs the advisor with the checkout's venv (tests/vm/advise_host.py).
test-zfs: $(VENV)/.dev-installed
	bash scripts/zfsvm.sh test $(PYTEST_ARGS)

# Capture real zpool/zfs/zdb outputs from the VM into tests/zfs/fixtures/ for the parser tests.
zfs-fixtures:
	bash scripts/zfsvm.sh capture

# The appliance: a bootable USB disk image (BIOS + UEFI) in var/appliance/nasui.img; heavy layers
# are cached in ~/.cache/nasui/appliance. test-appliance boots it in qemu and drives it from here.
.PHONY: appliance test-appliance
appliance:
	bash appliance/build.sh

test-appliance: appliance test-sysdeps $(VENV)/.dev-installed
	@scripts/sysdeps.sh $(APPLIANCE_TEST_DEBS)
	$(BIN)/python -m pytest appliance/test_appliance.py -c appliance/pytest.ini $(PYTEST_ARGS)
