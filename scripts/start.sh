#!/bin/sh
# `npm start`: build when the sources are newer than dist/, then serve.
node scripts/build-if-stale.js || exit 1
# Node flags (package.json "config.nodeFlags", also used by `npm run bench` and the Dockerfile):
#   --max-semi-space-size=32  The bench's CPU profile of the member list showed garbage collection
#                             at 8.4% of the service's busy time with the default young generation;
#                             32 MB semi-spaces brought it to 6.5% (see the README, Performance).
exec node ${npm_package_config_nodeFlags:-} dist/src/main.js
