# Betty's one entry point for people and CI. `make run` starts Betty; `make test` runs every test.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
NPM       ?= npm
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
DATA_DIR  ?= ./data
ADDR      ?= :8080
COVERAGE  := $(CURDIR)/.cache/contract-coverage
SHARED    := $(CURDIR)/../shared
GENERATED := server/api/api.gen.go sdk/client/client.gen.go server/httpapi/unimplemented.gen.go dashboard/src/api/gen docs/roles.md
# Sources the dashboard build reads: a second `make run` with none changed skips the build.
DASHBOARD_SRC := $(shell find dashboard/src dashboard/public -type f 2>/dev/null) dashboard/index.html \
  dashboard/package-lock.json dashboard/vite.config.ts $(wildcard dashboard/tsconfig*.json)
# Plain logs: no colour codes from npm tools when make runs (CI logs, files).
export NO_COLOR := 1
export FORCE_COLOR := 0

.PHONY: help run build dashboard deps generate check-generated lint test test-go test-dashboard test-e2e contract-coverage bench clean stripe-mock

help: ## List the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

run: build ## Build everything and start Betty on SQLite in ./data
	@echo "Starting Betty on $(ADDR) (data in $(DATA_DIR)); its address follows. Ctrl-C stops it."
	./bin/betty serve --addr $(ADDR) --data-dir $(DATA_DIR)

build: dashboard ## Build the dashboard and the betty binary into bin/betty
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/betty ./cmd/betty

deps: dashboard/node_modules/.package-lock.json ## Install the dashboard's npm packages

dashboard/node_modules/.package-lock.json: dashboard/package-lock.json
	cd dashboard && $(NPM) ci --no-audit --no-fund
	@touch $@

dashboard: dashboard/dist/index.html ## Build the dashboard into dashboard/dist (embedded in the binary)

dashboard/dist/index.html: dashboard/node_modules/.package-lock.json $(DASHBOARD_SRC)
	cd dashboard && $(NPM) run --silent build

generate: deps ## Regenerate the server, SDK and hooks from openapi.yaml
	$(GO) generate ./server/api ./sdk/client
	$(GO) run ./server/internal/cmd/genunimpl openapi.yaml server/httpapi/unimplemented.gen.go
	$(GO) run ./server/internal/cmd/genroles docs/roles.md
	cd dashboard && $(NPM) run --silent generate

check-generated: generate ## Fail when generated code differs from what is committed
	@if [ -n "$$(git status --porcelain -- $(GENERATED))" ]; then \
	  echo "Generated code is stale; run make generate and commit:"; git status --short -- $(GENERATED); \
	  git --no-pager diff --stat -- $(GENERATED); exit 1; fi
	@echo "generated code is fresh"

lint: deps ## Lint the contract (spectral) and the Go code (go vet)
	cd dashboard && $(NPM) run --silent lint:api
	@if [ -x "$(SHARED)/tools/spec-coverage" ]; then "$(SHARED)/tools/spec-coverage" openapi.yaml; fi
	$(GO) vet ./...

test: check-generated lint test-go test-dashboard test-e2e ## Run every test (set BETTY_TEST_POSTGRES_URL for the PostgreSQL leg)
	@echo
	@$(MAKE) -s contract-coverage
	@if [ -z "$${BETTY_TEST_POSTGRES_URL:-}" ]; then \
	  echo; echo "************************************************************************"; \
	  echo "*** The PostgreSQL leg was SKIPPED: BETTY_TEST_POSTGRES_URL is not set. ***"; \
	  echo "*** Only SQLite was tested. To include PostgreSQL:                     ***"; \
	  echo "***   BETTY_TEST_POSTGRES_URL='postgres://postgres@127.0.0.1:5432/test?sslmode=disable' make test"; \
	  echo "************************************************************************"; fi
	@if [ -z "$${BETTY_TEST_STRIPE_URL:-}" ]; then \
	  echo; echo "************************************************************************"; \
	  echo "*** The Stripe tests were SKIPPED: BETTY_TEST_STRIPE_URL is not set.   ***"; \
	  echo "*** Start stripe-mock (make stripe-mock) and run:                       ***"; \
	  echo "***   BETTY_TEST_STRIPE_URL=http://$(STRIPE_MOCK_ADDR) make test"; \
	  echo "************************************************************************"; fi

test-go: ## Go tests: unit, store and API contract tests on SQLite (and PostgreSQL when configured)
	rm -rf $(COVERAGE)
	BETTY_CONTRACT_COVERAGE_DIR=$(COVERAGE) $(GO) test -count=1 -timeout 30m ./...

test-dashboard: deps ## The dashboard's unit tests
	cd dashboard && $(NPM) run --silent test

test-e2e: build ## End-to-end tests in headless Chromium against a real betty serve (and the fake HubSpot)
	$(GO) build -o bin/fakehubspot ./server/internal/cmd/fakehubspot
	cd dashboard && BETTY_BIN=$(CURDIR)/bin/betty $(NPM) run --silent e2e

STRIPE_MOCK_VERSION ?= v0.203.0
STRIPE_MOCK_ADDR    ?= 127.0.0.1:12111
stripe-mock: ## Install stripe-mock and run it in the foreground for the payment tests (Ctrl-C stops it)
	@command -v stripe-mock >/dev/null || $(GO) install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)
	@echo "Then, in another shell: export BETTY_TEST_STRIPE_URL=http://$(STRIPE_MOCK_ADDR)"
	PATH="$$($(GO) env GOPATH)/bin:$$PATH" stripe-mock -http-addr $(STRIPE_MOCK_ADDR) -https-addr 127.0.0.1:0

contract-coverage: ## List operations no test exercised with a 2xx
	@$(GO) run ./server/internal/cmd/contractcov openapi.yaml $(COVERAGE)

bench: build ## Go benchmarks, then one report: full stack vs bare SQL, start-up, idle memory, CLI round trip, turn latency with a model, dashboard JS, Lighthouse, workflow canvas
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./server/internal/cmd/benchreport -bin bin/betty

clean: ## Remove build output
	rm -rf bin .cache dashboard/node_modules
