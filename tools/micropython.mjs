// Run a MicroPython program under the official WebAssembly port, in node.
//
//     node tools/micropython.mjs PORT SCRIPT [FOLDER ...]
//
// PORT is the port's micropython.mjs (npm: @micropython/micropython-webassembly-pyscript, which
// the Makefile installs). Each FOLDER's files are copied into the port's file system and put on
// sys.path ahead of the rest, in the order given, as files copied onto a Pico are. SCRIPT then
// runs as __main__; what it prints goes to stdout line by line. An exception it does not catch
// is printed to stderr and the exit status is 1.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [portPath, script, ...folders] = process.argv.slice(2);
if (!portPath || !script) {
  console.error("usage: node tools/micropython.mjs PORT SCRIPT [FOLDER ...]");
  process.exit(2);
}
const { loadMicroPython } = await import(pathToFileURL(resolve(portPath)).href);
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const paths = [];
folders.forEach((folder, i) => {
  const inside = `/f${i}`;
  mp.FS.mkdir(inside);
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isFile()) mp.FS.writeFile(`${inside}/${name}`, readFileSync(path));
  }
  paths.push(inside);
});
try {
  mp.runPython(`import sys\nsys.path[:0] = ${JSON.stringify(paths)}`);
  mp.runPython(readFileSync(script, "utf8"));
} catch (e) {
  process.stderr.write(String(e.message ?? e) + "\n");
  process.exitCode = 1;
}
