#!/bin/sh
# Regenerates the PyTorch reference files the model's Catch2 parity tests load
# (tests/reference/data/gpt_*.safetensors). Needs Debian's python3 with python3-torch and python3-numpy;
# a pyenv/venv python3 usually lacks torch, hence the absolute path.
set -eu
cd "$(dirname "$0")/.."
PYTHON="${EMBEDLAB_TORCH_PYTHON:-/usr/bin/python3}"
"$PYTHON" -c 'import torch, numpy' 2>/dev/null || {
  echo "error: $PYTHON cannot import torch and numpy (apt-get install python3-torch python3-numpy)" >&2
  exit 1
}
exec "$PYTHON" tests/reference/gpt_reference.py --out tests/reference/data "$@"
