#!/bin/sh
# deb after-install: /usr/bin/tandem is the launcher MCP clients spawn (the CLI), not the GUI.
# electron-builder installs the app under /opt/${sanitizedProductName}; the launcher sits in its
# resources folder and runs the CLI on the app's own binary (ELECTRON_RUN_AS_NODE).
set -e
ln -sf '/opt/${sanitizedProductName}/resources/bin/tandem' /usr/bin/tandem
