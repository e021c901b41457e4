#!/bin/bash
# Print "redis" when nothing answers at NASUI_REDIS_URL yet, so that `make run` starts its own.
url=${NASUI_REDIS_URL:-redis://127.0.0.1:6379/0}
if redis-cli -u "$url" ping >/dev/null 2>&1; then echo ""; else echo "redis"; fi
