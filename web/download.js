// The editor's save as a file download. After a save the game loads the name
// `crate-room:download:PATH`; this plugin answers it by offering the file the browser's storage
// keeps for PATH (storage.js's key `crate-room:PATH`) as a download named as the file: a Blob
// and a click on an `<a download>`. Every other name is loaded as before.
"use strict";

miniquad_add_plugin({
  name: "crate_room_download",
  version: 1,
  register_plugin: function (importObject) {
    const loadFile = importObject.env.fs_load_file;
    const prefix = "crate-room:download:";
    importObject.env.fs_load_file = function (ptr, len) {
      const name = UTF8ToString(ptr, len);
      if (!name.startsWith(prefix)) {
        return loadFile(ptr, len);
      }
      const path = name.slice(prefix.length);
      const text = window.localStorage.getItem("crate-room:" + path);
      if (text !== null) {
        const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
        const link = document.createElement("a");
        link.href = url;
        link.download = path.slice(path.lastIndexOf("/") + 1);
        document.body.appendChild(link);
        link.click();
        link.remove();
        // The browser has read the URL once the click's download starts; let it go later.
        setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
      }
      const id = FS.unique_id;
      FS.unique_id += 1;
      // No kept file: the game hears that the load failed, and says so on the console.
      FS.loaded_files[id] = text === null ? null : new Uint8Array(0);
      setTimeout(function () { wasm_exports.file_loaded(id); }, 0);
      return id;
    };
  },
});
