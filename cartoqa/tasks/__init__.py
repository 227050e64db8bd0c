"""The tasks, one package per suite, and ``common`` for what several tasks share.

``cartomapqa`` (the street-map tasks MFS, STMF, MTMF, RLE, MML, SRN, each with its own
rules beside it), ``mapiq`` and ``mapwise`` (thematic maps, on the shared base
``common.thematic``), ``frieda`` (maps with legends, scale bars and compasses). Each task
module declares its task once, as ``SPEC = TaskSpec(...)``; the declarations, the suite
table and the registry are in :mod:`cartoqa.declarations`, which never imports this
package except through the module paths of :data:`cartoqa.declarations.suites.SUITES`.
"""
