"""The TensorFlow backend: ``backend`` (cond/while/for under ``tf.function``), ``loops``
(the iterables a staged ``for`` runs over: ranges, tensors, datasets), ``numeric`` (the
builtins on graph tensors), ``keras_layers`` (``ag.convert`` of a Keras layer or model).
Imported lazily, the first time a TensorFlow value is seen."""
