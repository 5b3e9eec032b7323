"""Conformance cases the TensorFlow backend cannot pass yet, each with why: the
conftest marks them ``xfail(strict=True)`` on TensorFlow only, so a case that starts
passing fails the suite until it is taken off this list.

None now: what TensorFlow cannot express is a refusal the cases pin (a list of a run-time
length returned from a tf.function: ``Backend.returned_list``; an array shown by str()
in a staged raise's message: ``Backend.shows_arrays_in_messages``)."""

KNOWN_GAPS: dict = {}
