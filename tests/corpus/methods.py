# ruff: noqa  (user code as people write it, lint findings included)
"""Methods: bound, unbound, static, class, super(), name mangling, properties."""

import dataclasses

from . import case


class Account:
    fee = 1

    def __init__(self, balance):
        self.balance = balance
        self.history = []

    def __eq__(self, other):
        return type(other) is type(self) and vars(other) == vars(self)

    def __repr__(self):
        return f"Account({self.balance})"

    def withdraw(self, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        if amount + self.fee > self.balance:
            self.history.append(("refused", amount))
            return False
        self.balance -= amount + self.fee
        self.history.append(("withdraw", amount))
        return True

    def deposit_all(self, amounts):
        for a in amounts:
            if a < 0:
                break
            self.balance += a
            self.history.append(("deposit", a))
        return self.balance

    def replay(self):
        total = 0
        for kind, amount in self.history:
            total += amount if kind == "deposit" else -amount
        return total

    @staticmethod
    def interest(balance, rate, years):
        for _ in range(years):
            balance = balance + balance * rate
        return round(balance, 6)

    @classmethod
    def from_string(cls, text):
        if not text.startswith("acct:"):
            raise ValueError("bad account string")
        return cls(int(text[5:]))

    @property
    def overdrawn(self):
        return self.balance < 0


case("bound_method", inputs=[(10,), (200,), (0,), ("x",)],
     factory=lambda: Account(100).withdraw)
case("bound_method_loop", inputs=[([5, 10],), ([5, -1, 10],), ([],)],
     factory=lambda: Account(0).deposit_all)
case("unbound_method", Account.deposit_all,
     [(Account(1), [1, 2]), (Account(5), [-1]), (None, [1])])
case("staticmethod", Account.interest, [(100, 0.1, 2), (100, 0.5, 0), (1, 1, 3)])
case("staticmethod_via_instance", inputs=[(100, 0.1, 1)], factory=lambda: Account(3).interest)
case("classmethod", Account.from_string, [("acct:42",), ("nope",), ("acct:x",)])


def _account_with_history():
    a = Account(50)
    a.deposit_all([10, 20])
    a.withdraw(5)
    return a.replay


case("method_iterates_self", inputs=[()], factory=_account_with_history)


class Shape:
    def area(self):
        return 0

    def describe(self):
        a = self.area()
        if a == 0:
            return "degenerate"
        return f"{type(self).__name__} of area {a}"


class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h

    def describe(self):
        base = super().describe()
        if self.w == self.h:
            return base + " (square)"
        return base


case("super_call", inputs=[()], factory=lambda: Rect(2, 3).describe)
case("super_call_square", inputs=[()], factory=lambda: Rect(2, 2).describe)
case("super_call_degenerate", inputs=[()], factory=lambda: Rect(0, 2).describe)
case("overridden_via_base", inputs=[()], factory=lambda: Shape.describe.__get__(Rect(1, 4)))


class Vault:
    def __init__(self, secret):
        self.__secret = secret

    def guess(self, attempt):
        if attempt == self.__secret:
            return "open"
        for i in range(3):
            if attempt + i == self.__secret:
                return "close"
        return "no"

    def __check(self, value):
        return value == self.__secret

    def check_twice(self, a, b):
        return self.__check(a) or self.__check(b)

    def guesser(self):
        def guess(attempt):
            for i in range(2):
                if attempt + i == self.__secret:
                    return i
            return self.__check(attempt)
        return guess

    def checker(self):
        return lambda v: self.__secret - v if v else self.__check(v)


case("name_mangling", inputs=[(7,), (5,), (0,)], factory=lambda: Vault(7).guess)
case("name_mangled_method", inputs=[(1, 7), (1, 2)], factory=lambda: Vault(7).check_twice)
# A function nested in a method, converted on its own, mangles as the method does.
case("name_mangling_nested_function", inputs=[(7,), (6,), (0,)], factory=lambda: Vault(7).guesser())
case("name_mangling_lambda_in_method", inputs=[(7,), (0,)], factory=lambda: Vault(7).checker())


class Temperature:
    def __init__(self, celsius):
        self.celsius = celsius

    @property
    def fahrenheit(self):
        return self.celsius * 9 / 5 + 32

    def warm_up(self, target):
        steps = 0
        while self.fahrenheit < target:
            self.celsius += 5
            steps += 1
        return steps, self.celsius


case("property_in_loop", inputs=[(100,), (0,)], factory=lambda: Temperature(10).warm_up)


@dataclasses.dataclass
class Inventory:
    items: dict = dataclasses.field(default_factory=dict)

    def add(self, name, count=1):
        if count <= 0:
            return self.items.get(name, 0)
        if name in self.items:
            self.items[name] += count
        else:
            self.items[name] = count
        return self.items[name]


case("dataclass_method", Inventory.add,
     [(Inventory({"a": 1}), "a"), (Inventory(), "b", 3), (Inventory(), "c", 0)])


class Counter:
    instances = 0

    def __init__(self):
        self.n = 0

    def tick(self, k):
        for _ in range(k):
            self.n += 1
            if self.n >= 5:
                return "full"
        type(self).instances += 0
        return self.n


case("method_mutates_self", inputs=[(3,), (10,), (0,)], factory=lambda: Counter().tick)


class Tree:
    def __init__(self, value, children=()):
        self.value = value
        self.children = list(children)

    def total(self):
        s = self.value
        for child in self.children:
            s += child.total()
        return s

    def depth(self):
        if not self.children:
            return 1
        return 1 + max(c.depth() for c in self.children)


_TREE = Tree(1, [Tree(2, [Tree(4)]), Tree(3)])
case("recursive_method", _TREE.total, [()])
case("recursive_method_generator", _TREE.depth, [()])


class Greeter:
    def __init__(self, greeting):
        self.greeting = greeting

    def __call__(self, name, excited=False):
        if not name:
            raise ValueError("name required")
        text = f"{self.greeting}, {name}"
        return text + "!" if excited else text


case("dunder_call_method", Greeter("hi").__call__, [("bob",), ("", ), ("al", True)])
