// Run a script in real MicroPython (the WebAssembly port) with some files copied into its
// filesystem first: node run.mjs SRC=DEST... SCRIPT. Prints what the script prints.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync } from "fs";

const args = process.argv.slice(2);
const script = args.pop();
let out = "";
const mp = await loadMicroPython({
  stdout: (line) => { out += line + "\n"; },
  stderr: (line) => { out += line + "\n"; },
});
for (const pair of args) {
  const [src, dest] = pair.split("=");
  mp.FS.writeFile(dest, readFileSync(src));
}
let status = 0;
try {
  mp.runPython(readFileSync(script, "utf8"));
} catch (err) {
  out += "MicroPython raised: " + err.message + "\n";
  status = 1;
}
process.stdout.write(out);
process.exit(status);
