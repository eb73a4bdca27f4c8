#!/bin/sh
# deb after-remove: take the launcher link away with the package (only if it is still ours).
if [ -L /usr/bin/tandem ] && [ "$(readlink /usr/bin/tandem)" = '/opt/${sanitizedProductName}/resources/bin/tandem' ]; then
  rm -f /usr/bin/tandem
fi
