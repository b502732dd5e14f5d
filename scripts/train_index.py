#!/usr/bin/env python3
"""Train the corner-index CNN (controller/vision/index.py) on rendered card corners; reproducible.

The samples come from scripts/index_data.py (drawn from scratch, photo-like damage, cut by the same
`corner_crop` detection uses). The network is small on purpose: four 3×3 convolution blocks with batch
norm and max pooling, one hidden layer, a rank head (13 ranks and "no index here") and a suit head; it is
exported to ONNX with its softmaxes inside, which OpenCV's dnn module runs (no runtime dependency beyond
opencv and numpy).

Needs the `train` extra (pip install -e '.[train]': torch, onnx, Pillow; torch's CPU build is enough):

    PYTHONPATH=. python scripts/train_index.py [--samples 32000] [--close-samples 16000] [--seed 1]
        [--jobs 4] [--epochs 6] [--lr 1e-3] [--init MODEL.onnx] [--real ../shared/vision-dev]
        [--real-per 40] [--real-none 8] [--cache DATA.npz] [--out PATH]

Real corners: the labelled corners of vision-dev's tuning half A (scripts/index_real.csv) are added to
the training data, each cut --real-per times (--real-none times for corners with no index) with jittered
quads and camera damage (index_data.real_samples); half B is never trained on. Without the folder the
model is trained on rendered corners only (--real-per 0 does the same).

--init starts from an exported model instead of random weights. The committed model (docs/camera.md,
"Sixth round") is the fourth round's model trained on with the defaults:

    git show 87b2488:controller/vision/data/index_cnn.onnx > /tmp/round4.onnx
    PYTHONPATH=. nice -n 10 python scripts/train_index.py --init /tmp/round4.onnx

with vision-dev at ../shared/vision-dev and the font packages named in index_data.TTF_DIRS installed
(each job draws from its own seed, so the same jobs count gives the same data; torch's training is
deterministic on one machine with the same thread count). From random weights (the fourth round) a
higher rate and more data suited: --lr 3e-3 --samples 48000 --close-samples 24000 --jobs 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import index_data

from controller.vision.index import INPUT, MODEL_PATH, NONE, load_model, normalise

CHANNELS = (8, 16, 32, 64)
HIDDEN = 128


def draw(n: int, seed: int, jobs: int, close: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n samples, `jobs` processes each drawing a slice from its own seed."""
    parts = [(n // jobs + (j < n % jobs), seed * 1000 + j, close) for j in range(jobs)]
    if jobs == 1:
        got = [index_data.make(*parts[0])]
    else:
        with ProcessPoolExecutor(jobs) as ex:
            got = list(ex.map(index_data.make, *zip(*parts, strict=True)))
    return tuple(np.concatenate([g[k] for g in got]) for k in range(3))  # type: ignore[return-value]


def build(torch: object) -> object:
    """The network (torch is imported by the caller: it is a training dependency only)."""
    import torch.nn as nn

    def block(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c = CHANNELS
            self.features = nn.Sequential(
                *block(3, c[0]), nn.MaxPool2d(2), *block(c[0], c[1]), nn.MaxPool2d(2),
                *block(c[1], c[2]), nn.MaxPool2d(2), *block(c[2], c[3]), nn.MaxPool2d(2), nn.Flatten(),
                nn.Dropout(0.2), nn.Linear(c[3] * (INPUT[1] // 16) * (INPUT[0] // 16), HIDDEN), nn.ReLU())
            self.rank = nn.Linear(HIDDEN, NONE + 1)
            self.suit = nn.Linear(HIDDEN, 4)
            self.export = False

        def forward(self, x):  # type: ignore[no-untyped-def]
            h = self.features(x)
            r, s = self.rank(h), self.suit(h)
            if self.export:
                return torch.cat([torch.softmax(r, 1), torch.softmax(s, 1)], 1)  # type: ignore[attr-defined]
            return r, s

    return Net()


def load_onnx(net: object, path: Path, x: object) -> None:
    """Start from an exported model: its initializers into `net`. The export folded each batch norm into
    its convolution, so the convolution takes the folded weights and its batch norm is set to pass them
    through on these samples `x` (its statistics measured on them, its scale and shift undoing them)."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    feats = net.features  # type: ignore[attr-defined]
    layers = [m for m in feats if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in feats if isinstance(m, torch.nn.BatchNorm2d)]
    assert len(convs) == len(layers) == len(norms)
    net.eval()  # type: ignore[attr-defined]
    with torch.no_grad():
        for node, conv, bn in zip(convs, layers, norms, strict=True):
            conv.weight.copy_(init[node.input[1]])
            upto = list(feats).index(conv) + 1
            y = feats[:upto](x)
            mean, var = y.mean(dim=(0, 2, 3)), y.var(dim=(0, 2, 3))
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean + init[node.input[2]])
        for name, p in net.named_parameters():  # type: ignore[attr-defined]
            if name in init:
                p.copy_(init[name])


def train(data: tuple[np.ndarray, ...], val: tuple[np.ndarray, ...], epochs: int, seed: int,
          out: Path, start: Path | None = None, lr: float = 3e-3) -> None:
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # a second thread gained nothing on the shared 2-core machine
    net = build(torch)
    x = torch.from_numpy(normalise(data[0]))
    yr, ys = torch.from_numpy(data[1]), torch.from_numpy(data[2])
    vx = torch.from_numpy(normalise(val[0]))
    if start is not None:
        load_onnx(net, start, x[torch.randperm(len(x), generator=torch.Generator().manual_seed(seed))[:1024]])
        rank_acc, suit_acc = _accuracy(net, vx, val[1], val[2])
        print(f"from {start}: held-out rank {rank_acc:.3f} (none included), suit {suit_acc:.3f}", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    batch = 256
    steps = epochs * (len(x) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        t0, total = time.perf_counter(), 0.0
        order = torch.randperm(len(x), generator=gen)
        for i in range(len(x) // batch):
            idx = order[i * batch:(i + 1) * batch]
            xb = x[idx]
            if torch.rand(1, generator=gen).item() < 0.5:  # print brighter or darker than the paper alike
                xb = xb * (1 + 0.3 * (torch.rand(len(xb), 1, 1, 1, generator=gen) - 0.5))
            r, s = net(xb)
            loss = F.cross_entropy(r, yr[idx], label_smoothing=0.05) + \
                F.cross_entropy(s, ys[idx], ignore_index=-1, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        rank_acc, suit_acc = _accuracy(net, vx, val[1], val[2])
        print(f"epoch {epoch + 1}: loss {total / (len(x) // batch):.3f}, held-out rank {rank_acc:.3f} "
              f"(none included), suit {suit_acc:.3f}, {time.perf_counter() - t0:.0f} s", flush=True)
    net.eval()
    net.export = True
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, INPUT[1], INPUT[0]), str(out), input_names=["corner"],
                      output_names=["probs"], dynamic_axes={"corner": {0: "n"}, "probs": {0: "n"}},
                      dynamo=False)
    # The exported graph must give what torch gives (OpenCV's importer reads every layer).
    model = load_model.__wrapped__(out)
    assert model is not None
    got = np.concatenate(model.probs(val[0][:64]), axis=1)
    with torch.no_grad():
        want = net(vx[:64]).numpy()
    assert np.allclose(got, want, atol=1e-4), float(np.abs(got - want).max())


def _accuracy(net: object, vx: object, yr: np.ndarray, ys: np.ndarray) -> tuple[float, float]:
    import torch

    net.eval()  # type: ignore[attr-defined]
    with torch.no_grad():
        outs = [net(vx[i:i + 1024]) for i in range(0, len(vx), 1024)]  # type: ignore[index,operator]
    r = torch.cat([o[0] for o in outs]).argmax(1).numpy()
    s = torch.cat([o[1] for o in outs]).argmax(1).numpy()
    has = ys >= 0
    return float((r == yr).mean()), float((s[has] == ys[has]).mean())


def _part(args: argparse.Namespace, close: bool, n: int) -> tuple[tuple[np.ndarray, ...], ...]:
    """(training, held-out) samples of one camera profile, from the cache when it has them."""
    cache = args.cache and (args.cache.with_suffix(".close.npz") if close else args.cache)
    if cache and cache.exists():
        with np.load(cache) as c:
            return (c["x"], c["yr"], c["ys"]), (c["vx"], c["vyr"], c["vys"])
    seed = args.seed + (100 if close else 0)
    data = draw(n, seed, args.jobs, close)
    val = draw(n // 10, seed + 500, args.jobs, close)  # held-out draws, never trained on
    if cache:
        np.savez(cache, x=data[0], yr=data[1], ys=data[2], vx=val[0], vyr=val[1], vys=val[2])
    return data, val


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=32000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=4, help="processes drawing samples")
    ap.add_argument("--close-samples", type=int, default=16000, help="samples of sharp, close views")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--real", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" /
                    "vision-dev", help="vision-dev folder: its half A's labelled corners are trained on")
    ap.add_argument("--real-per", type=int, default=40, help="draws of each real corner with an index")
    ap.add_argument("--real-none", type=int, default=8, help="draws of each real corner without one")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--init", type=Path, help="start from this exported model (ONNX) instead of at random")
    ap.add_argument("--lr", type=float, default=1e-3, help="peak learning rate (one cycle)")
    ap.add_argument("--cache", type=Path, help="drawn samples (FILE and FILE's .close.npz): written after "
                    "drawing, read if they exist")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    t0 = time.perf_counter()
    fonts = index_data.ttf_fonts()
    print(f"{len(fonts)} TrueType fonts" if fonts
          else "no Pillow or no fonts: Hershey and stroke glyphs only")
    data, val = _part(args, close=False, n=args.samples)
    if args.close_samples:  # sharp views (close cameras, high-resolution photos) as a second part
        more, more_val = _part(args, close=True, n=args.close_samples)
        data = tuple(np.concatenate(p) for p in zip(data, more, strict=True))
        val = tuple(np.concatenate(p) for p in zip(val, more_val, strict=True))
    if args.real_per and (args.real / "truth.csv").exists():
        real = index_data.real_samples(args.real, args.real_per, args.real_none, args.seed + 200)
        print(f"{len(real[0])} real corner crops from {args.real} (half A)")
        data = tuple(np.concatenate(p) for p in zip(data, real, strict=True))
    elif args.real_per:
        print(f"{args.real}: no vision-dev there; rendered corners only")
    print(f"{len(data[0])} training / {len(val[0])} held-out corners, drawn in "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    train(data, val, args.epochs, args.seed, args.out, args.init, args.lr)
    print(f"{args.out}: {args.out.stat().st_size / 1024:.0f} KiB, {time.perf_counter() - t0:.0f} s in all")


if __name__ == "__main__":
    main()
