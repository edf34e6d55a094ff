# Sourced by setup.sh and build-sanitize.sh: apt_install LABEL PACKAGE... installs the given Debian packages as root,
# or through sudo, and says clearly what it needs otherwise; clang_packages_missing names, one a line, the Debian
# packages the sanitizer build (clang++, libFuzzer, ASan, UBSan) still needs.
apt_install() {
  local label=$1
  shift
  echo "$label: installing Debian packages: $*"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null; then
      sudo=sudo
    else
      echo "$label: installing $* needs root; run as root or install sudo" >&2
      exit 1
    fi
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

clang_packages_missing() {
  if ! command -v clang++ >/dev/null; then
    printf '%s\n' clang libclang-rt-dev # Debian's default clang and its runtime libraries
  elif [ ! -f "$(clang++ -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]; then
    echo "libclang-rt-$(clang++ --version | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -1)-dev"
  fi
}
