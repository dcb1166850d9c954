"""Files on disk, shared by every family: model files read without running code (:mod:`.safe_load`), where
the shipped models live and how a spec names one (:mod:`.shipped`), the environment version a model was
trained on (:mod:`.model_version`), and run folders written so that a kill at any moment loses nothing
(:mod:`.durable`; the SB3 family's checkpoints are :mod:`boardgames.training.sb3.checkpoints`), and the signed
checkpoints of RLlib runs (:mod:`.run_signature`)."""
