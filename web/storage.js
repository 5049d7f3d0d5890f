// The browser side of `quad-storage-sys`: the game's files that must outlive the page (best
// times, progress, settings, the editor's drafts) kept in the browser's localStorage. Strings
// cross to and from the game as sapp-jsutils objects (`sapp_jsutils.js`, loaded before this),
// which the game frees.
"use strict";

miniquad_add_plugin({
  name: "quad_storage",
  // quad-storage-sys 0.1.0, as its `quad_storage_crate_version` encodes it.
  version: (0 << 24) + (1 << 16) + 0,
  register_plugin: function (importObject) {
    const env = importObject.env;
    env.quad_storage_length = function () {
      return window.localStorage.length;
    };
    env.quad_storage_has_key = function (i) {
      return window.localStorage.key(i) === null ? 0 : 1;
    };
    env.quad_storage_key = function (i) {
      return js_object(window.localStorage.key(i));
    };
    env.quad_storage_has_value = function (key) {
      return window.localStorage.getItem(get_js_object(key)) === null ? 0 : 1;
    };
    env.quad_storage_get = function (key) {
      return js_object(window.localStorage.getItem(get_js_object(key)));
    };
    env.quad_storage_set = function (key, value) {
      window.localStorage.setItem(get_js_object(key), get_js_object(value));
    };
    env.quad_storage_remove = function (key) {
      window.localStorage.removeItem(get_js_object(key));
    };
    env.quad_storage_clear = function () {
      window.localStorage.clear();
    };
  },
});
