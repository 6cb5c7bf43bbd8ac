"""Learning the models the players read, and the reports that check them.

- :mod:`skat.training.generate`: self-play training games for the bidding evaluation;
- :mod:`skat.training.fit`: fitting the 10+2 bidding evaluation to played games;
- :mod:`skat.training.inference_tables`: counting our bidder's auctions for card inference;
- :mod:`skat.training.bidding_report`: calibration of a bidding model against the solver.

This package sits above the runtime: it may import players, the bidding model, inference and
the match loop, and nothing at runtime (players, inference, the bidding model, ui, web) may
import it. Its products are files (``bidding.npz``, ``inference.npz``) that the runtime loads.
"""
