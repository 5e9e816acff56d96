from collections.abc import Callable, Sequence

def unrank_many(classes: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
                split_options: Callable[[int, tuple[int, ...]], list[tuple[int, tuple[int, ...], tuple[int, ...]]]],
                count: Callable[[int, tuple[int, ...]], int], needs: tuple[int, ...], known: tuple[int, ...],
                indices: list[int]) -> list[int]: ...
