#!/usr/bin/env bash
# The middle of `npm test`: the Vitest suites, with the production build that the e2e tests run made beside them (the
# suites leave part of the two cores idle while they wait on chains, databases and child processes). The build's own
# output follows the suites'; the step fails if either does.
set -uo pipefail
log=$(mktemp /tmp/storefront-build-log.XXXXXX)
STOREFRONT_TYPECHECKED=1 npm run build >"$log" 2>&1 &
build=$!
# Interrupted (Ctrl-C, a failing CI): the build goes too.
trap 'kill "$build" 2>/dev/null; rm -f "$log"' EXIT
npm run test:unit
unit=$?
wait "$build"
built=$?
cat "$log"
if [ "$built" -ne 0 ]; then echo "the production build failed (exit $built)" >&2; fi
[ "$unit" -eq 0 ] && [ "$built" -eq 0 ]
