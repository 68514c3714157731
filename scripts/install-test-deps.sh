#!/usr/bin/env bash
# Installs the system programs the tests drive for real: Prometheus (+ promtool), VictoriaMetrics
# (single-node server), OpenSSH's sshd,
# Chromium (driven by playwright-core), the Noto CJK fonts (charts with Chinese labels), Noto Color
# Emoji (the playground's screenshots) and
# systemd-analyze (the service unit).
# Does nothing when they are already there.
set -euo pipefail
missing=()
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v victoria-metrics >/dev/null 2>&1 || missing+=(victoria-metrics)
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v ssh >/dev/null 2>&1 || missing+=(openssh-client)
command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -e /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
[ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ ${#missing[@]} -eq 0 ] && exit 0
packages=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
echo "installing test dependencies: $packages"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
# NOTE: no init system in containers; keep package scripts from starting the services.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod +x /usr/sbin/policy-rc.d
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $packages >/dev/null
