"""The options of readers and formatters that have some option that writes or runs code: only
the options listed here print; any other option (the tool's next release may add a writing
one) makes the command `unknown`. Readers none of whose options can write or run code (cat,
wc, ls, ...) are not listed: any option is theirs to take.

Each entry: the options that print, as `-x` / `--name`; a trailing `=` marks one that takes a
value (the next word, or `--name=v`, or the rest of a short cluster). Long options match
exactly: a prefix might stand for an option the list does not know."""

from __future__ import annotations

_SPEC = {
    "bat": "-A --show-all -p --plain -l= --language= -H= --highlight-line= --file-name= -d "
    "--diff --diff-context= --tabs= --wrap= -S --chop-long-lines -n --number --color= "
    "--italic-text= --decorations= -f --force-colorization --paging= -P --no-paging "
    "-m= --map-syntax= --ignored-suffix= --theme= --theme-dark= --theme-light= "
    "--list-themes -L --list-languages --style= -r= --line-range= -u --unbuffered -s "
    "--squeeze-blank --squeeze-limit= --strip-ansi= --nonprintable-notation= --binary= "
    "--terminal-width= --no-config --no-custom-assets --config-file --config-dir "
    "--cache-dir --diagnostic --acknowledgements --completion= -h --help -V --version",
    "xmllint": "--version --debug --debugent --copy --recover --huge --noent --noenc "
    "--nocdata --nodict --nsclean --noout --nonet --nocompact --htmlout --nowrap --valid "
    "--postvalid --timing --repeat --insert --html --xmlout --nodefdtd --push --pushsmall "
    "--memory --nowarning --noblanks --nocatalogs --catalogs --auto --xinclude "
    "--noxincludenode --nofixup-base-uris --loaddtd --dtdattr --stream --walker --sax1 "
    "--sax --c14n --c14n11 --exc-c14n --format --quiet --load-trace --oldxml10 --dropdtd "
    "--pedantic --path= --dtdvalid= --dtdvalidfpi= --relaxng= --schema= --schematron= "
    "--pattern= --xpath= --maxmem= --encode= --pretty= --max-ampl= --help",
    "info": "-a --all -k= --apropos= -d= --directory= -f= --file= -n= --node= --index-search= "
    "-R --raw-escapes --no-raw-escapes --show-malformed-multibytes -O --show-options --usage "
    "--strict-node-location --subnodes -v= --variable= --vi-keys -w --where --location "
    "-h --help --version",
    "highlight": "-i= --input= -O= --out-format= -S= --syntax= -s= --style= -l --line-numbers "
    "-j= --line-number-length= -m= --line-number-start= -z --zeroes -t= --replace-tabs= "
    "-V --wrap-simple -W --wrap -J= --line-length= -q --quiet -f --fragment --inline-css "
    "--enclose-pre --anchors -k= --font= -K= --font-size= --base16 --list-scripts= "
    "--print-style --no-trailing-nl --keep-injections --force --encoding= "
    "--syntax-by-name= -h --help --version -v --verbose",
    "source-highlight": "-i= --input= -s= --src-lang= -f= --out-format= -n --line-number "
    "--line-number-ref --tab= --title= --css= --style-file= --style-css-file= "
    "--no-doc --doc -q --quiet --infer-lang --lang-list --outlang-list --failsafe "
    "-h --help -V --version",
    "cloc": "--by-file --by-file-by-lang --exclude-dir= --exclude-ext= --exclude-lang= "
    "--include-ext= --include-lang= --match-f= --not-match-f= --match-d= --not-match-d= "
    "--vcs= --quiet --json --yaml --xml --csv --md --sum-one --hide-rate --progress-rate= "
    "--skip-uniqueness --fullpath --no-recurse --exclude-content= --include-content= "
    "--max-file-size= --timeout= --show-lang --show-ext --diff --git --follow-links "
    "--count-and-diff --skip-archive= --list-file= --exclude-list-file= --categorized= "
    "--ignored= --original-dir --strip-comments= --3 --v --verbose --version --help",
    "scc": "--by-file --no-cocomo --no-complexity --no-duplicates --no-gen --no-ignore "
    "--no-gitignore --no-large --no-min-gen --hidden --wide -w -f= --format= --exclude-dir= "
    "-x= --exclude-ext= -i= --include-ext= -s= --sort= -M= --not-match= --count-as= "
    "--min --gen --debug --trace -v --verbose -h --help --version",
    "markdownlint": "-d --dot -j --json -q --quiet -s --stdin -i= --ignore= -p= "
    "--ignore-path= --enable= --disable= -h --help -V --version",
    "jsonlint": "-q --quiet -c --compact -s --sort-keys -t= --indent= -V= --validate= "
    "-C --comments -T --trailing-commas -e= --environment= -h --help -v --version",
    "sqlformat": "-k= --keywords= -i= --identifiers= -l= --language= -r --reindent "
    "--reindent_aligned --indent_width= --indent_after_first --indent_columns "
    "-a --use_space_around_operators --wrap_after= --comma_first= --compact= -s "
    "--strip-comments --encoding= -h --help --version",
    "xsv": "-d= --delimiter= -n --no-headers -s= --select= -i --ignore-case -v --invert-match "
    "-l= --length= -R --reverse -N --numeric -u --unique -j= --jobs= --everything "
    "--cardinality --median --mode --nulls --quartiles -h --help --version",
    "dasel": "-f= --file= -r= --read= -w= --write= -p= --parser= -m --multiple -s= "
    "--selector= --null -n --compact -c --colour --color --plain --pretty --escape-html "
    "--indent= --csv-delimiter= --length -t= --type= -v= --value= -d= --document= "
    "-h --help --version",
    "tomlq": "-r --raw-output -c --compact-output -e --exit-status -n --null-input -S "
    "--sort-keys -j --join-output -a --ascii-output -s --slurp -C --color-output -M "
    "--monochrome-output -R --raw-input --arg= --argjson= --indent= --tab -t --tojson "
    "-y --yaml-output -Y --yaml-roundtrip --width= -h --help --version",
    "mediainfo": "-f --Full --Language= --Inform= --Output= --Details= "
    "--Info-Parameters --Info-Codecs --Info-Version --Info-Url -h --help --version",
    "ffprobe": "-v= -loglevel= -hide_banner -show_format -show_streams -show_entries= "
    "-of= -print_format= -output_format= -select_streams= -show_frames -show_packets "
    "-show_data -show_data_hash= -show_error -show_chapters -show_programs -show_stream_groups "
    "-show_private_data -private -count_frames -count_packets -read_intervals= -pretty "
    "-sexagesimal -unit -prefix -byte_binary_prefix -i= -f= -probesize= -analyzeduration= "
    "-show_program_version -show_library_versions -show_versions -show_pixel_formats "
    "-show_optional_fields= -show_log= -bitexact -threads= -h -help -version -formats "
    "-codecs -decoders -encoders -protocols -filters -pix_fmts -layouts -sample_fmts "
    "-colors -muxers -demuxers -devices -bsfs -buildconf -L -x=",
    "pdftotext": "-f= -l= -r= -x= -y= -W= -H= -layout -fixed= -raw -nodiag -htmlmeta -bbox "
    "-bbox-layout -cropbox -colspacing= -enc= -listenc -eol= -nopgbrk -opw= -upw= -q -v "
    "-h -help --help",
    "actionlint": "-format= -ignore= -color -no-color -oneline -verbose -debug -version "
    "-init-config-no -stdin-filename= -config-file= -h -help --help",
    "delta": "-n --line-numbers -s --side-by-side --navigate --hyperlinks --dark --light "
    "--syntax-theme= --features= -w= --width= --tabs= --wrap-max-lines= --word-diff-regex= "
    "--max-line-length= --minus-style= --plus-style= --zero-style= --file-style= "
    "--hunk-header-style= --no-gitconfig --color-only --raw --show-syntax-themes "
    "--list-syntax-themes --show-themes --show-config --diff-highlight --diff-so-fancy "
    "--keep-plus-minus-markers --relative-paths --paging= -h --help -V --version",
}
_SPEC["batcat"] = _SPEC["bat"]
_SPEC["xq"] = _SPEC["tomlq"] + " -x --xml-output --xml-root= --xml-dtd --xml-item-depth="
# single-dash long options (xmllint takes -noout as --noout; ffprobe and others only -name)
_ONE_DASH = frozenset(("xmllint", "ffprobe", "pdftotext", "actionlint"))


def _load() -> dict[str, tuple[set[str], set[str]]]:
    out = {}
    for prog, spec in _SPEC.items():
        flags: set[str] = set()
        valued: set[str] = set()
        for o in spec.split():
            (valued if o.endswith("=") else flags).add(o.rstrip("="))
        out[prog] = (flags, valued)
    return out


LISTED = _load()


def unlisted(prog: str, a: list[str]) -> tuple[str, list[str]]:
    """(the first option of `a` the program's list does not know, or "", the operands)."""
    flags, valued = LISTED[prog]
    ops: list[str] = []
    i = 0
    while i < len(a):
        w = a[i]
        i += 1
        if w == "--":
            ops.extend(a[i:])
            break
        if w[:1] != "-" or w == "-":
            ops.append(w)
            continue
        if prog in _ONE_DASH and w[:2] != "--" and len(w) > 2 and w[1:2].isalpha():
            if prog == "xmllint":
                w = "-" + w  # -noout is --noout
        name, eq, _ = w.partition("=")
        if name in flags and not eq:
            continue
        if name in valued:
            i += 0 if eq else 1
            continue
        if name[:2] == "--" or prog in _ONE_DASH and len(name) > 2:
            return w, ops
        for j in range(1, len(w)):  # a cluster of short options: -pn, -l=python, -lpython
            x = "-" + w[j]
            if x in valued:
                i += 0 if w[j + 1 :] else 1
                break
            if x not in flags:
                return w, ops
    return "", ops
