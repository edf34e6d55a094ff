"""Continues an embedlab model in PyTorch, on one process or many (DistributedDataParallel).

    python3 train.py --data ids.bin --steps 200 --batch 16 --length 64 --processes 2 --out trained.safetensors

--data holds uint32 little-endian token ids (`npx embedlab tokenize --format bin`). --init is the checkpoint to
start from (default: model.safetensors next to this file, where `npx embedlab export-torch` puts it); --out loads
back with `lab.loadModel`, at step start + steps, with the optimizer's moments.

With --processes P it starts P workers on this machine (torch.multiprocessing; gloo on CPU, nccl on CUDA;
127.0.0.1 only). Under torchrun (RANK and WORLD_SIZE set) it joins that job instead, for several machines.
Each step's global batch is drawn from --seed and the step number alone, and rank r trains on its slice, so P
processes with global batch B take the same steps as one process with B.
"""
import argparse
import os
import socket
import sys
import threading
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from embedlab_gpt import load_checkpoint, save_checkpoint  # noqa: E402


# Bad input or a failed step: reported as one line, not a traceback.
USER_ERRORS = (ValueError, OSError, FloatingPointError)


def parse_args(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", required=True, help="uint32 little-endian token ids")
    p.add_argument("--init", default=os.path.join(here, "model.safetensors"), help="checkpoint to start from")
    p.add_argument("--out", required=True, help="where to write the trained checkpoint")
    p.add_argument("--steps", type=int, required=True, help="optimizer steps to take")
    p.add_argument("--batch", type=int, default=8, help="global batch: sequences per step, over all processes")
    p.add_argument("--length", type=int, default=64, help="tokens per sequence")
    p.add_argument("--processes", type=int, default=1, help="DDP workers to start on this machine")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--lr", type=float, help="learning rate (default: the checkpoint's)")
    p.add_argument("--seed", type=int, default=0, help="seed of the batch sampler")
    args = p.parse_args(argv)
    for name, low in (("steps", 1), ("batch", 1), ("length", 1), ("processes", 1), ("seed", 0)):
        if getattr(args, name) < low:
            p.error(f"--{name} must be an integer >= {low}, got {getattr(args, name)}")
    if args.batch % args.processes:
        p.error(f"--batch ({args.batch}) must be a multiple of --processes ({args.processes})")
    if args.lr is not None and not 0 <= args.lr <= 10:
        p.error(f"--lr must be in [0, 10], got {args.lr}")
    return args


def batch_starts(seed, step, batch, tokens, length):
    """Where the step's B sequences start: a function of (seed, step) only, the same in every process."""
    rng = np.random.default_rng([seed, step])
    return rng.integers(0, tokens - length, size=batch)


def local_batch(data, starts, length, vocab_size, rank, world, device):
    """(ids, targets) of this rank's slice. Every rank checks the whole global batch, so a bad id stops all of them
    at the same step instead of leaving the others waiting in DDP's all-reduce."""
    rows = np.stack([data[s:s + length + 1] for s in starts]).astype(np.int64)
    if rows.max() >= vocab_size:
        raise ValueError(f"--data holds token id {rows.max()}, the model's vocab_size is {vocab_size}; tokenize "
                         "with the vocabulary the model was made for")
    per_rank = len(starts) // world
    rows = torch.from_numpy(rows[rank * per_rank:(rank + 1) * per_rank]).to(device)
    return rows[:, :-1], rows[:, 1:]


def open_data(path, length):
    size = os.path.getsize(path)
    if size % 4:
        raise ValueError(f"--data {path} has {size} bytes, not a whole number of uint32 ids")
    if size // 4 < length + 1:
        raise ValueError(f"--data {path} holds {size // 4} ids, --length {length} needs at least {length + 1}")
    return np.memmap(path, dtype="<u4", mode="r")


def train(rank, world, args, local_rank=0):
    """One process of the job (the only one when world == 1)."""
    if args.device == "cuda":
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    else:
        device = torch.device("cpu")
        torch.set_num_threads(max(1, (os.cpu_count() or 1) // max(1, args.processes)))
    if world > 1:
        dist.init_process_group("nccl" if args.device == "cuda" else "gloo", rank=rank, world_size=world)
    try:
        if args.batch % world:
            raise ValueError(f"--batch ({args.batch}) must be a multiple of the number of processes ({world})")
        model, optimizer = load_checkpoint(args.init, device)
        if model.config.positions == "learned" and args.length > model.config.context_length:
            raise ValueError(f"--length must be in [1, {model.config.context_length}] for learned positions "
                             f"(the model's context_length), got {args.length}")
        if args.lr is not None:
            optimizer.set_learning_rate(args.lr)
        data = open_data(args.data, args.length)
        net = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
        start = optimizer.step_count
        for s in range(args.steps):
            starts = batch_starts(args.seed, start + s, args.batch, len(data), args.length)
            ids, targets = local_batch(data, starts, args.length, model.config.vocab_size, rank, world, device)
            optimizer.zero_grad()
            _, loss = net(ids, targets)
            loss.backward()  # DDP averages the gradients: the global batch's mean loss, as one process
            norm = optimizer.step()
            loss = loss.detach()
            if world > 1:
                dist.all_reduce(loss)
                loss /= world
            if rank == 0:
                print(f"step {optimizer.step_count} loss {loss.item():.9g} gradient_norm {norm:.9g}", flush=True)
        if rank == 0:
            save_checkpoint(args.out, model, optimizer)
            print(f"saved {args.out} at step {optimizer.step_count}", flush=True)
    finally:
        if world > 1:
            dist.destroy_process_group()


def exit_with_parent(parent):
    """Ends this worker once the launcher that spawned it is gone: a launcher killed (a timeout, Ctrl-C twice) would
    otherwise leave its workers waiting on each other, a core busy for good."""

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def spawned(rank, world, port, args, parent):
    exit_with_parent(parent)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    try:
        train(rank, world, args, local_rank=rank)
    except USER_ERRORS as error:  # the message, not a worker's traceback
        print(f"train.py (process {rank}): {error}", file=sys.stderr, flush=True)
        sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    args = parse_args()
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:  # started by torchrun: join its job
        args.processes = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
        train(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), args, int(os.environ.get("LOCAL_RANK", "0")))
    elif args.processes > 1:
        if args.device == "cuda" and torch.cuda.device_count() < args.processes:
            raise SystemExit(f"--processes {args.processes} with --device cuda needs as many GPUs, "
                             f"found {torch.cuda.device_count()}")
        try:
            mp.spawn(spawned, args=(args.processes, free_port(), args, os.getpid()), nprocs=args.processes)
        except (mp.ProcessRaisedException, mp.ProcessExitedException) as error:
            raise SystemExit(f"train.py: a worker failed: {str(error).strip()}")
    else:
        train(0, 1, args)


if __name__ == "__main__":
    try:
        main()
    except USER_ERRORS as error:
        raise SystemExit(f"train.py: {error}")
