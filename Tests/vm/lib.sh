# Shared by the VM builders (sourced, not run).

# copy_module_closure KROOT KVER DEST MODULE...: the named modules of the unpacked kernel at
# KROOT and everything they depend on, installed under DEST/lib/modules/KVER with its index.
# Out-of-tree modules (extra/) lose their debug info ($STRIP: the strip for their architecture,
# default the host's); in-tree ones are already stripped.
copy_module_closure() {
  local kroot=$1 kver=$2 dest=$3; shift 3
  local mod ko rel km=$kroot/lib/modules/$kver
  for mod in "$@"; do
    modprobe -d "$kroot" -S "$kver" --show-depends "$mod" | awk '$1=="insmod"{print $2}'
  done | awk '!seen[$0]++' | while read -r ko; do
    rel=${ko#"$kroot"}; install -D -m644 "$ko" "$dest$rel"
    if [[ $rel == */extra/* ]]; then ${STRIP:-strip} --strip-debug "$dest$rel"; fi
  done
  cp "$km"/modules.builtin* "$km/modules.order" "$dest/lib/modules/$kver/" 2>/dev/null || true
  depmod -b "$dest" "$kver"
}

# make_initramfs KROOT KVER OUT INIT FILES MODULE...: a busybox initramfs at OUT whose /init is
# INIT, with the space-separated FILES copied to its root and the modules' closure; busybox is
# the host's, or $BUSYBOX (the arm64 VM's, which boots another architecture's kernel).
make_initramfs() {
  local kroot=$1 kver=$2 out=$3 init=$4 files=$5; shift 5
  local r f; r=$(mktemp -d "$out.root.XXXXXX")
  mkdir -p "$r"/{bin,sbin,proc,sys,dev,tmp,etc,hostroot,newroot}
  cp "${BUSYBOX:-/bin/busybox}" "$r/bin/busybox"
  copy_module_closure "$kroot" "$kver" "$r" "$@"
  for f in $files; do install -m755 "$f" "$r/$(basename "$f")"; done
  install -m755 "$init" "$r/init"
  (cd "$r" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp"
  mv "$out.tmp" "$out"; rm -rf "$r"
}
