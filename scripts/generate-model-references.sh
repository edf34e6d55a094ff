#!/bin/sh
# Regenerates the PyTorch reference files the model's Catch2 parity tests load
# (tests/reference/data/gpt_*.safetensors). Needs Debian's python3 with python3-torch and python3-numpy;
# a pyenv/venv python3 usually lacks torch, hence the absolute path.
#
#   scripts/generate-model-references.sh                       write the reference files
#   scripts/generate-model-references.sh --check-checkpoints BIN
#       run the Catch2 binary BIN so it writes trained checkpoints of every scheme, then load them in
#       PyTorch and require the same logits (1e-5)
set -eu
cd "$(dirname "$0")/.."
PYTHON="${EMBEDLAB_TORCH_PYTHON:-/usr/bin/python3}"
"$PYTHON" -c 'import torch, numpy' 2>/dev/null || {
  echo "error: $PYTHON cannot import torch and numpy (apt-get install python3-torch python3-numpy)" >&2
  exit 1
}
if [ "${1:-}" = "--check-checkpoints" ]; then
  binary="${2:?usage: $0 --check-checkpoints path/to/embedlab_tests}"
  directory="$(mktemp -d)"
  trap 'rm -rf "$directory"' EXIT
  EMBEDLAB_TORCH_CHECK_DIR="$directory" "$binary" "checkpoints for the PyTorch cross-check" >/dev/null
  "$PYTHON" tests/reference/gpt_reference.py --verify-checkpoints "$directory"
  exit
fi
exec "$PYTHON" tests/reference/gpt_reference.py --out tests/reference/data "$@"
