"""Named classic layouts of the standard set, with their minimum steps from the literature.

The layouts and step counts are those of the well-known table of fayaa.com (发芽网) classic
layouts, the figures usually quoted (横刀立马 81, 峰回路转 138); the ones klotski.online lists
agree with its ids.  ``literature_steps`` is None for 走投无路, known to have no solution.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from huarong.engine.layout import Layout


@dataclass(frozen=True)
class Classic:
    """A named layout; ``grid`` is its grid text, rows separated by ``/``."""

    name: str
    name_en: str
    grid: str
    literature_steps: int | None
    layout: Layout = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "layout", Layout.from_grid(self.grid))


CLASSICS: tuple[Classic, ...] = (
    Classic("横刀立马", "Sword on Horseback", "VCCV/VCCV/VHHV/VSSV/S..S", 81),
    Classic("指挥若定", "Calm Command", "VCCV/VCCV/SHHS/VSSV/V..V", 70),
    Classic("将拥曹营", "Generals Crowd Cao's Camp", ".CC./VCCV/VVVV/SVVS/HHSS", 72),
    Classic("齐头并进", "Side by Side", "VCCV/VCCV/SSSS/VHHV/V..V", 60),
    Classic("兵分三路", "Three Columns", "SCCS/VCCV/VHHV/VSSV/V..V", 72),
    Classic("雨声淅沥", "Patter of Rain", "VCCS/VCCS/VHHV/VV.V/SV.S", 47),
    Classic("左右布兵", "Soldiers Left and Right", "SCCS/SCCS/VVVV/VVVV/.HH.", 54),
    Classic("桃花园中", "In the Peach Garden", "SCCS/VCCV/VVVV/SVVS/.HH.", 70),
    Classic("一路进军", "One Road Forward", "VCCS/VCCS/VVVS/VVVS/.HH.", 58),
    Classic("一路顺风", "Fair Wind All the Way", "VCCS/VCCS/VHHV/VSVV/.SV.", 39),
    Classic("围而不歼", "Surrounded, Not Destroyed", "VCCS/VCCS/VHHS/VVVS/.VV.", 62),
    Classic("捷足先登", "The Swift Arrive First", "SCCS/SCCS/.HH./VVVV/VVVV", 32),
    Classic("插翅难飞", "Not Even with Wings", "VCCS/VCCS/HHSS/VHHV/V..V", 62),
    Classic("守口如瓶", "Tight as a Bottle", "VCCV/VCCV/SV.S/SV.S/HHHH", 81),
    Classic("层层设防", "Layer upon Layer", "VCCV/VCCV/SHHS/SHHS/.HH.", 102),
    Classic("水泄不通", "Watertight", "VCCS/VCCS/HHHH/HHHH/S..S", 79),
    Classic("四将连关", "Four Generals Hold the Pass", "CCHH/CCHH/VVHH/VVSS/S..S", 39),
    Classic("勇闯五关", "Storming Five Passes", "SCCS/SCCS/HHHH/HHHH/.HH.", 34),
    Classic("五将逼宫", "Five Generals at the Gate", "HHHH/VCCV/VCCV/SHHS/S..S", 36),
    Classic("小燕出巢", "The Swallow Leaves the Nest", "VCCV/VCCV/HHHH/SHHS/S..S", 103),
    Classic("比翼横空", "Wing to Wing", "HHCC/HHCC/HHHH/S.SV/S.SV", 28),
    Classic("夹道藏兵", "Soldiers in the Lane", "CCSV/CCSV/HHHH/HHHH/S..S", 75),
    Classic("四面楚歌", "Surrounded on All Sides", "VSSV/VCCV/SCCV/VHHV/V..S", 56),
    Classic("前呼后拥", "Escorted Front and Back", "SSCC/HHCC/HHHH/HHHH/..SS", 22),
    Classic("兵临曹营", "Soldiers at Cao's Camp", "SCCS/SCCS/VHHV/VVVV/.VV.", 34),
    Classic("近在咫尺", "So Near Yet", "SVVV/SVVV/HHSS/HHCC/..CC", 98),
    Classic("峰回路转", "Winding Mountain Road", "SSSV/CCVV/CCVV/.HHV/.SHH", 138),
    Classic("屯兵东路", "Troops on the East Road", "CCVV/CCVV/HHSS/VVSS/VV..", 71),
    Classic("走投无路", "Nowhere to Go", "VCCV/VCCV/VVSV/VVSV/S..S", None),
)
"""Every named classic layout, in the table's order."""
