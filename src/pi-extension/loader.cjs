// dist/pi-extension.js: what pi loads. pi loads extensions through jiti, which
// transforms every file it loads (≈ 17 s for the 7 MB bundle, on every start
// with a cold cache); this stub is small, and loads the bundle beside it with
// Node's own require, untouched.
"use strict";
const { createRequire } = require("node:module");
const { join } = require("node:path");
const loaded = createRequire(__filename)(join(__dirname, "pi-extension-main.js"));
module.exports = loaded && loaded.default ? loaded.default : loaded;
