import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, touched } from "./helpers";

beforeAll(loadParser);

describe("mv", () => {
  it("renames: the destination is M, the source D", () => {
    expect(touched("mv a.ts b.ts")).toEqual({ "b.ts": "M", "a.ts": "D" });
  });

  it("carries the source's earlier letters to the destination", () => {
    expect(touched("echo x > a; mv a b")).toEqual({ b: "WM", a: "D" });
    expect(touched("echo x > a; mv a b; echo y > a")).toEqual({ b: "WM", a: "WD" });
  });

  it("into a directory: DIR/ spelling, several sources, -t DIR, a mkdir'd directory", () => {
    expect(touched("mv a.ts lib/")).toEqual({ "lib/a.ts": "M", "a.ts": "D" });
    expect(touched("mv a.ts b.ts lib")).toEqual({ "lib/a.ts": "M", "a.ts": "D", "lib/b.ts": "M", "b.ts": "D" });
    expect(touched("mv -t lib a.ts")).toEqual({ "lib/a.ts": "M", "a.ts": "D" });
    expect(touched("mkdir -p old && mv a.ts old")).toEqual({ "old/a.ts": "M", "a.ts": "D" });
    expect(touched("mv -T a.ts lib")).toEqual({ lib: "M", "a.ts": "D" });
  });

  it("options with values are not operands", () => {
    expect(touched("mv -f -S .old --backup=numbered a.ts b.ts")).toEqual({ "b.ts": "M", "a.ts": "D" });
  });

  it("a move to the same path changes nothing", () => {
    expect(touched("mv a.ts ./a.ts")).toEqual({});
  });
});

describe("cp and install", () => {
  it("cp reads the source and writes the destination", () => {
    expect(touched("cp a.txt b.txt")).toEqual({ "a.txt": "R", "b.txt": "W" });
    expect(touched("cp a.txt b.txt dest/")).toEqual({ "a.txt": "R", "b.txt": "R", "dest/a.txt": "W", "dest/b.txt": "W" });
    expect(touched("cp -t dest a.txt")).toEqual({ "a.txt": "R", "dest/a.txt": "W" });
    expect(touched("cp -p a.txt /tmp/")).toEqual({ "a.txt": "R", "/tmp/a.txt": "W" });
  });

  it("a source known only at run time still writes a named destination", () => {
    expect(touched("cp $(npm root -g)/pkg/dark.json ~/.themes/custom.json")).toEqual({ "~/.themes/custom.json": "W" });
    expect(touched("cp $SRC dest/")).toEqual({});
  });

  it("a recursive copy of a directory names no files; of a file it does", () => {
    expect(touched("cp -r src backup")).toEqual({});
    expect(touched("cp -a dist/ /srv/www/")).toEqual({});
    expect(touched("cp -r notes.md archive/")).toEqual({ "notes.md": "R", "archive/notes.md": "W" });
  });

  it("install copies; install -d makes directories", () => {
    expect(touched("install -m 755 build/tool /usr/local/bin/tool")).toEqual({ "build/tool": "R", "/usr/local/bin/tool": "W" });
    expect(touched("install -d /opt/app")).toEqual({});
  });
});

describe("rm, unlink, shred", () => {
  it("rm deletes files, with any flags", () => {
    expect(touched("rm -f a.txt b.txt; rm -- -weird.txt")).toEqual({ "a.txt": "D", "b.txt": "D", "-weird.txt": "D" });
    expect(touched("unlink link.txt")).toEqual({ "link.txt": "D" });
  });

  it("a recursive delete of a directory names no new files", () => {
    expect(touched("rm -rf build/ node_modules dist")).toEqual({});
  });

  it("a recursive delete deletes the files this command string touched under it", () => {
    expect(touched("mkdir -p tmp && echo x > tmp/a.txt && rm -rf tmp")).toEqual({ "tmp/a.txt": "WD" });
  });

  it("rm -r of something spelled like a file deletes it", () => {
    expect(touched("rm -rf coverage.json")).toEqual({ "coverage.json": "D" });
  });
});

describe("ln, touch, truncate, dd, tee, mkdir", () => {
  it("ln writes the link name, not the target", () => {
    expect(touched("ln -s ../shared/config.json config.json")).toEqual({ "config.json": "W" });
    expect(touched("ln -sf /etc/hosts")).toEqual({ hosts: "W" });
    expect(touched("ln -s a.txt b.txt links/")).toEqual({ "links/a.txt": "W", "links/b.txt": "W" });
  });

  it("touch: -d DATE, -t STAMP are values; -r REF is read", () => {
    expect(touched("touch -d '2 days ago' a.txt")).toEqual({ "a.txt": "W" });
    expect(touched("touch -t 202401010000 b.txt")).toEqual({ "b.txt": "W" });
    expect(touched("touch -r ref.txt c.txt")).toEqual({ "ref.txt": "R", "c.txt": "W" });
    expect(touched("touch --date=now d.txt")).toEqual({ "d.txt": "W" });
  });

  it("truncate -s N writes the file", () => {
    expect(touched("truncate -s 0 app.log")).toEqual({ "app.log": "W" });
  });

  it("dd if= reads, of= writes, devices ignored", () => {
    expect(touched("dd if=/dev/zero of=disk.img bs=1M count=10")).toEqual({ "disk.img": "W" });
    expect(touched("dd if=in.bin of=out.bin")).toEqual({ "in.bin": "R", "out.bin": "W" });
  });

  it("tee writes, tee -a appends, /dev/null ignored", () => {
    expect(touched("echo x | tee a.txt b.txt")).toEqual({ "a.txt": "W", "b.txt": "W" });
    expect(touched("echo x | tee -a log.txt > /dev/null")).toEqual({ "log.txt": "E" });
    expect(touched("echo x | sudo tee /etc/motd >/dev/null")).toEqual({ "/etc/motd": "W" });
  });

  it("mkdir, chmod, ls, stat name no files", () => {
    expect(touched("mkdir -p a/b && chmod +x run.sh && ls -la && stat x.txt")).toEqual({});
  });

  it("interpreters and build tools name no files", () => {
    expect(touched("python3 script.py data.csv; node build.js; make -C sub; npm test; cargo build")).toEqual({});
  });
});
