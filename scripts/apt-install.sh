# Sourced by setup.sh and fuzz.sh: apt_install LABEL PACKAGE... installs the given Debian packages as root,
# or through sudo, and says clearly what it needs otherwise.
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
