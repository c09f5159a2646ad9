"""The one table of programs the analysis knows: program name -> the function that judges it,
in the module of its family. A `w_` function is a wrapper (it returns the words of the command
it runs); an `h_` function fills a Command's reads, writes and flags. A program may have both
(`uv run ...` wraps, `uv add` is a package change). Family modules load on first use, so
`import core.shell.analysis` stays cheap; a program not in this table is `unknown`."""

from __future__ import annotations

# module.function: programs (continuation lines start with spaces)
_TABLE = """
builtins.h_pager: less more most man
outputs.h_exiftool: exiftool
builtins.h_prints: exit return break continue logout apt-cache top htop pwd whoami id uname true false
                  : printenv seq sleep yes basename dirname which type jobs tr expr df free uptime
                  ps pgrep lsof nproc getconf arch groups users who w tty locale tput clear cal
                  factor numfmt logname dirs shopt help command_not_found_handle times
                  bg fg disown caller compopt whereis locate plocate mlocate lsb_release
                  traceroute tracepath
                  env lscpu lsblk lsusb lspci lsmod ping dig nslookup host whois
                  tldr pstree vmstat iostat mpstat sw_vers netstat ioreg system_profiler
builtins.h_arith: let test [ [[ wait getopts
builtins.h_callbacks: compgen complete hash enable
builtins.h_look: date hostname sysctl timedatectl hostnamectl localectl ifconfig nvidia-smi ss
                 git-lfs umask ulimit mount stty
builtins.h_readers: bc hadolint markdownlint actionlint eza exa lsd dir vdir shellcheck info whatis apropos zipinfo zcmp zdiff
                    jless mdcat highlight colordiff wdiff icdiff delta difft
                    cloc tokei scc pdftotext pdfinfo identify ffprobe
                    mediainfo envsubst json_pp jsonlint yamllint xq htmlq pup sqlformat
                    csvlook csvstat xsv mlr gron dasel tomlq hexyl ccat
runners.h_runner: pytest py.test tox nox make gmake bmake ninja meson bazel bazelisk buck
                  gradle gradlew mvn mvnw ant sbt lein clojure clj javac java kotlin kotlinc
                  scala scalac dotnet swift swiftc xcodebuild xcrun mix rebar3 rake rspec
                  cucumber phpunit jest vitest mocha ava karma playwright cypress tsc vite
                  webpack rollup esbuild parcel turbo nx lerna just task invoke poe doit
                  scons waf cc gcc g++ c++ clang clang++ rustc zig ld as nasm tcc icc
                  gfortran go-task hugo jekyll mkdocs sphinx-build sphinx-autobuild
                  coverage mypy pyright pylint flake8 bandit pyflakes pycodestyle
                  pydocstyle vulture radon stylelint golangci-lint staticcheck
                  cargo-nextest nextest behave robot locust hypothesis uvx
                  unittest2 trial nosetests nose2 green ward pants wasm-pack trunk
                  ctest cpack qmake autoreconf autoconf automake configure
                  runghc runhaskell stack cabal ghc dune opam
                  elm elm-make purs spago gleam crystal nim nimble dart flutter
                  octave matlab sage maxima gnuplot latexmk pdflatex
                  xelatex lualatex tectonic pandoc typst
runners.h_npx: npx bunx pnpx
runners.h_cmake: cmake
runners.h_gdb: gdb lldb
runners.h_history: history
runners.h_mktemp: mktemp
runners.h_fallocate: fallocate
runners.h_link: link
runners.h_ip: ip
runners.h_fd: fd fdfind
services.h_service_cli: kubectl oc helm terraform tofu pulumi docker podman nerdctl
                        docker-compose aws gcloud az systemctl service launchctl
                        journalctl rc-service vault consul nomad rclone restic borg velero
                        mysqladmin pg_ctl gsutil flyway liquibase
services.h_ansible: ansible ansible-playbook
databases.h_sql_client: psql pgcli mysql mariadb mongosh mongo clickhouse-client
databases.h_redis: redis-cli valkey-cli
databases.h_db_tool: pg_dump pg_dumpall pg_restore mongodump mongoexport mongorestore mongoimport
remote.h_httpie: http https xh xhs
services.h_twine: twine
wrappers.w_sudo: sudo
wrappers.w_doas: doas
wrappers.w_env: env
wrappers.w_nohup: nohup setsid builtin unbuffer torsocks catchsegv
wrappers.w_unshare: unshare
wrappers.w_firejail: firejail
wrappers.w_time: time
wrappers.w_nice: nice
wrappers.w_timeout: timeout
wrappers.w_ionice: ionice
wrappers.w_stdbuf: stdbuf
wrappers.w_command: command
wrappers.w_exec: exec
wrappers.w_jobs: jobs
wrappers.w_xargs: xargs
wrappers.w_taskset: taskset
wrappers.w_chrt: chrt
wrappers.w_caffeinate: caffeinate
wrappers.w_proxychains: proxychains proxychains4
wrappers.w_busybox: busybox toybox
wrappers.w_chroot: chroot
wrappers.w_trace: strace ltrace
wrappers.w_valgrind: valgrind
wrappers.w_prlimit: prlimit
wrappers.w_setpriv: setpriv
wrappers.w_fakeroot: fakeroot fakechroot
wrappers.w_uv: uv
wrappers.w_poetry: poetry pipenv pdm hatch rye
wrappers.w_conda: conda mamba
wrappers.w_micromamba: micromamba
wrappers.w_nsenter: nsenter
wrappers.w_systemd_run: systemd-run
builtins.h_cd: cd pushd popd
builtins.h_declare: export declare typeset local readonly
builtins.h_read: read mapfile readarray
builtins.h_unset: unset
builtins.h_printf: printf
builtins.h_echo: echo
files.h_rm: rm
files.h_rmdir: rmdir unlink
files.h_touch: touch
files.h_mkdir: mkdir
files.h_mkfifo: mkfifo
files.h_mknod: mknod
files.h_chmod: chmod chown chgrp chattr chflags
files.h_setfacl: setfacl
files.h_ln: ln
files.h_cp: cp mv install ditto
files.h_tee: tee
builtins.h_grep: grep egrep fgrep zgrep rg ag ack
files.h_sed: sed
interpreters.h_interp: python pypy node nodejs ts-node tsx ruby php lua luajit rscript r
                       osascript julia elixir groovy expect tclsh wish jshell irb ghci erl
interpreters.h_shell: sh bash zsh dash ksh mksh ash fish yash tcsh csh rbash
builtins.h_eval: eval
builtins.h_source: source .
builtins.h_trap: trap
builtins.h_alias: alias
builtins.h_set: set
builtins.h_shift: shift
builtins.h_at: at batch
builtins.h_readers: cat tac nl head tail bat batcat hexdump hd od strings
                    file wc cut paste join comm diff diff3 sdiff cmp md5sum sha1sum
                    sha224sum sha256sum sha384sum sha512sum b2sum cksum sum shasum md5 fold
                    fmt column expand unexpand rev zcat bzcat xzcat zstdcat gzcat lzcat
                    zless zmore stat ls du tree xmllint look iconv readlink realpath
                    objdump readelf nm ldd lsattr getfacl pr tsort source-highlight
                    clip pbcopy xclip xsel wl-copy
files.h_shred: shred srm wipe
files.h_truncate: truncate
remote.h_rsync: rsync
remote.h_scp: scp
remote.h_ssh: sftp ssh
files.h_dd: dd
files.h_sponge: sponge
files.h_sort: sort
files.h_uniq: uniq
files.h_shuf: shuf
files.h_gpg: gpg
files.h_xxd: xxd
system.h_openssl: openssl
system.h_sshkeygen: ssh-keygen
builtins.h_base64: base64 base32 basenc
builtins.h_jq: jq yq gojq jaq
files.h_find: find
interpreters.h_awk: awk gawk mawk nawk
interpreters.h_perl: perl
interpreters.h_pygmentize: pygmentize
interpreters.h_deno_bun: deno bun
interpreters.h_dotenv: dotenv
interpreters.h_pwsh: pwsh powershell
system.h_watch: watch
system.h_flock: flock
system.h_su: su
system.h_runuser: runuser
system.h_script: script
runners.h_tmux: tmux
system.h_screen: screen
remote.h_sqlite3: sqlite3
system.h_parallel: parallel
interpreters.h_editor: vi vim nvim view ex ed red nano pico emacs micro joe kak hx sudoedit
archives.h_patch: patch
remote.h_curl: curl
remote.h_wget: wget
archives.h_tar: tar bsdtar
archives.h_unzip: unzip
archives.h_zip: zip
archives.h_7z: 7z 7za 7zz
archives.h_cpio: cpio
archives.h_pax: pax
archives.h_gzip: gzip gunzip bzip2 bunzip2 xz unxz zstd unzstd lz4 pigz compress uncompress
                 lzma
files.h_dos2unix: dos2unix unix2dos
files.h_split: split csplit
system.h_mkfs: mkfs mkswap fdisk sfdisk parted wipefs sgdisk gdisk cfdisk blkdiscard
               diskutil
system.h_power: shutdown reboot halt poweroff
system.h_init: init telinit
system.h_crontab: crontab
git.h_git: git
gh.h_gh: gh
packages.h_pip: pip pipx
packages.h_pkg_node: npm pnpm yarn
packages.h_pkg_generic: uv poetry pipenv pdm hatch rye cargo go gem bundle composer conda mamba
                        micromamba apt apt-get aptitude dpkg dnf yum microdnf rpm apk pacman
                        zypper emerge xbps-install snap flatpak port brew nix-env pkg choco
                        winget scoop
packages.formatter: black isort autopep8 yapf prettier eslint gofmt goimports rustfmt clang-format
                    shfmt stylua biome dprint ruff
"""


def _load(table: str) -> tuple[dict[str, str], dict[str, str]]:
    wrappers: dict[str, str] = {}
    handlers: dict[str, str] = {}
    target = ""
    for line in table.split("\n"):
        if not line.strip():
            continue
        if line[:1] != " ":
            target, _, line = line.partition(": ")
        out = wrappers if target.split(".", 1)[1][:2] == "w_" else handlers
        for name in line.split():
            out[name] = target
    return wrappers, handlers


WRAPPERS, HANDLERS = _load(_TABLE)
_funcs: dict[str, object] = {}


def _resolve(target: str | None):
    if target is None:
        return None
    f = _funcs.get(target)
    if f is None:
        mod, _, name = target.partition(".")
        f = _funcs[target] = getattr(__import__("core.shell." + mod, fromlist=[name]), name)
    return f


def function(target: str):
    """A family module's function by "module.name", loaded on first use as the handlers are
    (effects asks services what a command line run elsewhere destroys)."""
    return _resolve(target)


def handler(key: str):
    """The function that judges program `key` (see key()), or None when it is unknown."""
    return _resolve(HANDLERS.get(key))


def wrapper(key: str):
    """The wrapper function for program `key`, or None when it wraps nothing."""
    return _resolve(WRAPPERS.get(key))


def family(k: str) -> str:
    """The module.function that judges program `k` ('' when unknown)."""
    return HANDLERS.get(k, "")


def known(k: str) -> bool:
    return k in HANDLERS or k in WRAPPERS


# families whose programs come with a version in their name; a digit after any other known
# name makes a different program, which stays unknown
_VERSIONED = ("interpreters", "runners", "packages")


def key(prog: str) -> str:
    """The table name of a program: lower case, `python3.12` -> python, `mkfs.ext4` -> mkfs,
    GNU tools on macOS (gsed, gtar, grm) -> sed, tar, rm."""
    k = prog.lower()
    if k in HANDLERS or k in WRAPPERS:
        return k
    if k.startswith("mkfs"):
        return "mkfs"
    s = k.rstrip("0123456789.")
    if s != k and HANDLERS.get(s, "").split(".", 1)[0] in _VERSIONED:
        return s  # python3.12, pip3, ruby3: a version, never ls2 or cat9 (unknown programs)
    if k[:1] == "g" and k[1:] in HANDLERS and k[1:] not in ("it", "h", "o"):
        return k[1:]
    return k
