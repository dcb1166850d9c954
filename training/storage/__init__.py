"""Files on disk: model files read without running code (:mod:`.safe_load`), the shipped models, model
versions, and run folders written so that a kill at any moment loses nothing (:mod:`.durable`,
:mod:`.checkpoints`)."""
