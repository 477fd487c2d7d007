import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, touched } from "./helpers";

beforeAll(loadParser);

describe("commands behind wrappers", () => {
  it("sudo with options, env with assignments and options", () => {
    expect(touched("sudo -u root -E rm /etc/old.conf")).toEqual({ "/etc/old.conf": "D" });
    expect(touched("sudo VAR=1 touch s.txt")).toEqual({ "s.txt": "W" });
    expect(touched("env -i PATH=/bin FOO=bar touch e.txt")).toEqual({ "e.txt": "W" });
    expect(touched("env -u HOME -C sub touch c.txt")).toEqual({ "sub/c.txt": "W" });
    expect(touched("FOO=1 BAR=2 touch prefixed.txt")).toEqual({ "prefixed.txt": "W" });
    expect(touched('sudo -E env PATH="$PATH" HOME=$HOME touch dyn.txt')).toEqual({ "dyn.txt": "W" });
  });

  it("command, builtin, exec, time, nohup, nice, timeout, stdbuf", () => {
    expect(touched("command rm a.txt; command -v rm")).toEqual({ "a.txt": "D" });
    expect(touched("time rm b.txt; nohup touch c.txt &")).toEqual({ "b.txt": "D", "c.txt": "W" });
    expect(touched("nice -n 10 touch d.txt; nice -5 touch e.txt")).toEqual({ "d.txt": "W", "e.txt": "W" });
    expect(touched("timeout 30 sed -i 's/a/b/' f.txt; timeout -s KILL -k 5 10s touch g.txt")).toEqual({ "f.txt": "E", "g.txt": "W" });
    expect(touched("stdbuf -oL tee h.txt")).toEqual({ "h.txt": "W" });
    expect(touched("time (touch t1.txt; cd x)")).toEqual({ "t1.txt": "W" });
  });

  it("xargs: literal arguments count, stdin arguments are unknown", () => {
    expect(touched("find . -name '*.tmp' | xargs rm -f")).toEqual({});
    expect(touched("ls | xargs -I{} cp {} backup/")).toEqual({});
    expect(touched("echo a | xargs sed -i 's/x/y/' fixed.txt")).toEqual({ "fixed.txt": "E" });
    expect(touched("xargs -a list.txt rm")).toEqual({ "list.txt": "R" });
  });

  it("bash -c and sh -c parse the inner string; its cd does not leak", () => {
    expect(touched("bash -c 'cd sub && touch in.txt'; touch out.txt")).toEqual({ "sub/in.txt": "W", "out.txt": "W" });
    expect(touched("sh -c \"echo x > 'q.txt'\"")).toEqual({ "q.txt": "W" });
    expect(touched("bash -lc 'rm -f gone.txt'")).toEqual({ "gone.txt": "D" });
    expect(touched("bash -euo pipefail -c 'cat a.txt > b.txt'")).toEqual({ "a.txt": "R", "b.txt": "W" });
    expect(touched("bash -o errexit -x -c 'touch o.txt' arg0")).toEqual({ "o.txt": "W" });
    expect(touched("sudo bash -c 'echo 1 > /proc/sys/x'")).toEqual({ "/proc/sys/x": "W" });
  });

  it("a multi-line script in double quotes keeps its newlines (heredoc inside bash -c)", () => {
    expect(touched("sudo bash -c \"cat >> /etc/environment <<'EOF'\nJAVA_HOME=/opt/jdk\nEOF\"")).toEqual({ "/etc/environment": "E" });
    expect(touched('bash -c "touch one.txt\ntouch two.txt"')).toEqual({ "one.txt": "W", "two.txt": "W" });
  });

  it("bash SCRIPT runs a script: what it does is unknown", () => {
    expect(touched("bash deploy.sh; sh -x build.sh")).toEqual({});
  });

  it("eval parses its literal arguments, in the same shell", () => {
    expect(touched("eval 'cd sub'; touch e.txt")).toEqual({ "sub/e.txt": "W" });
    expect(touched('eval "$(ssh-agent)"')).toEqual({});
  });

  it("find -exec runs the command with {} unknown; -delete only deletes a literal file", () => {
    expect(touched("find . -name '*.ts' -exec sed -i 's/a/b/' {} \\;")).toEqual({});
    expect(touched("find . -name '*.ts' -exec grep -l foo {} +")).toEqual({});
    expect(touched("find src -type f -exec cat {} \\; > all.txt")).toEqual({ "all.txt": "W" });
    expect(touched("find . -name '*.pyc' -delete")).toEqual({});
    expect(touched("find build/out.o -delete")).toEqual({ "build/out.o": "D" });
    expect(touched("find config.yml -exec sed -i 's/a/b/' {} \\;")).toEqual({ "config.yml": "E" });
    expect(touched("find . -type f -fprint files.txt")).toEqual({ "files.txt": "W" });
  });
});
