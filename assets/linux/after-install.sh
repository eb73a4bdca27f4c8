#!/bin/sh
# deb after-install (postinst). electron-builder fills in the ${...} names when it builds the
# package; dpkg runs the result as root. Replacing electron-builder's own script means doing
# its work here too, or the app dies at its first start:
#   - /usr/bin/tandem is the launcher MCP clients spawn (the CLI), never the GUI binary;
#   - Chromium's sandbox helper must be setuid root where the kernel refuses unprivileged user
#     namespaces;
#   - on AppArmor systems that restrict user namespaces (Ubuntu 24.04 and later) the app needs
#     the profile electron-builder ships in resources/apparmor-profile.
# Paths honour DPKG_ROOT (dpkg --root; empty otherwise), which is also how the test suite runs
# this script in a scratch folder (test/app/package-contents.test.ts).
set -e
root="${DPKG_ROOT:-}"
app='/opt/${sanitizedProductName}'
gui='${executable}'

mkdir -p "$root/usr/bin"
ln -sfn "$app/resources/bin/tandem" "$root/usr/bin/tandem"

sandbox="$root$app/chrome-sandbox"
if [ -e "$sandbox" ]; then
  if [ -L /proc/self/ns/user ] && unshare --user true >/dev/null 2>&1; then
    chmod 0755 "$sandbox"
  else
    chmod 4755 "$sandbox"
  fi
fi

profile_source="$root$app/resources/apparmor-profile"
profile="$root/etc/apparmor.d/$gui"
if [ -f "$profile_source" ] && command -v apparmor_parser >/dev/null 2>&1 && apparmor_status --enabled >/dev/null 2>&1; then
  # AppArmor older than 4.0 (Ubuntu 22.04) cannot read the profile, and needs none: skip it.
  if apparmor_parser --skip-kernel-load --debug "$profile_source" >/dev/null 2>&1; then
    mkdir -p "$root/etc/apparmor.d"
    cp -f "$profile_source" "$profile"
    # Loading into the running kernel makes no sense for another root or inside a chroot.
    if [ -z "$root" ] && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
      apparmor_parser --replace --write-cache --skip-read-cache "$profile" || true
    fi
  fi
fi

if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database "$root/usr/share/applications" || true
fi
exit 0
