"""The PyTorch backend: ``backend`` (cond/while/for under ``torch.compile`` and
``torch.export``). Imported lazily, the first time a PyTorch tensor is seen."""
