"""Runs the exported PyTorch module for tests/node/torch_export.test.mjs.

usage: python3 torch_export_check.py MODULE_DIR JOB.json
JOB.json: a list of cases {checkpoint, ids, batch, length, out[, targets]}. For each case it loads the checkpoint
with MODULE_DIR/embedlab_gpt.py, writes the logits of ids to OUT.logits (float32 LE) and, with targets, takes one
training step with its AdamW and writes the loss, gradient norm, step and the logits after the step
(OUT.step_logits). Prints one JSON line of results.
"""
import json
import sys

import torch


def main():
    module_dir, job_path = sys.argv[1], sys.argv[2]
    sys.path.insert(0, module_dir)
    import embedlab_gpt

    torch.set_num_threads(1)
    results = []
    with open(job_path) as f:
        cases = json.load(f)
    for case in cases:
        model, optimizer = embedlab_gpt.load_checkpoint(case["checkpoint"])
        ids = torch.tensor(case["ids"], dtype=torch.int64).view(case["batch"], case["length"])
        with torch.no_grad():
            logits, _ = model(ids)
        logits.numpy().astype("<f4").tofile(case["out"] + ".logits")
        result = {"step": optimizer.step_count, "config": model.config.to_metadata()}
        if "targets" in case:
            targets = torch.tensor(case["targets"], dtype=torch.int64).view(case["batch"], case["length"])
            optimizer.zero_grad()
            _, loss = model(ids, targets)
            loss.backward()
            result["gradient_norm"] = optimizer.step()
            result["loss"] = loss.item()
            result["step_after"] = optimizer.step_count
            with torch.no_grad():
                logits, _ = model(ids)
            logits.numpy().astype("<f4").tofile(case["out"] + ".step_logits")
        results.append(result)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
