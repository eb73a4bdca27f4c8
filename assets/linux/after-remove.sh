#!/bin/sh
# deb after-remove (postrm): takes away what after-install.sh added — the /usr/bin/tandem link
# (only while it is still ours) and the AppArmor profile (unloaded first). electron-builder fills
# in the ${...} names; paths honour DPKG_ROOT like after-install.sh. On an upgrade the new
# package's after-install puts both back.
root="${DPKG_ROOT:-}"
app='/opt/${sanitizedProductName}'
gui='${executable}'

if [ -L "$root/usr/bin/tandem" ] && [ "$(readlink "$root/usr/bin/tandem")" = "$app/resources/bin/tandem" ]; then
  rm -f "$root/usr/bin/tandem"
fi

profile="$root/etc/apparmor.d/$gui"
if [ -f "$profile" ]; then
  if [ -z "$root" ] && command -v apparmor_parser >/dev/null 2>&1 && apparmor_status --enabled >/dev/null 2>&1 && ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --remove "$profile" || true
  fi
  rm -f "$profile"
fi
exit 0
