#!/bin/sh
# Copy the pinned front-end libraries from node_modules into static/vendor/ (served locally:
# the appliance has no internet). Run after `npm ci`.
set -eu
cd "$(dirname "$0")/.."
dest=static/vendor
mkdir -p "$dest"
cp node_modules/@tabler/core/dist/css/tabler.min.css "$dest/tabler.min.css"
cp node_modules/@tabler/core/dist/js/tabler.min.js "$dest/tabler.min.js"
cp node_modules/htmx.org/dist/htmx.min.js "$dest/htmx.min.js"
cp node_modules/chart.js/dist/chart.umd.min.js "$dest/chart.umd.min.js"
