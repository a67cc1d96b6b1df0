//! Arithmetic modulo BabyBear's prime, enough to check trace generators in tests.

use core::ops::{Add, Mul, Sub};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bb(pub u64);

impl Bb {
    pub const P: u64 = 2_013_265_921;
}

impl Add for Bb {
    type Output = Bb;
    fn add(self, o: Bb) -> Bb {
        Bb((self.0 + o.0) % Self::P)
    }
}

impl Sub for Bb {
    type Output = Bb;
    fn sub(self, o: Bb) -> Bb {
        Bb((self.0 + Self::P - o.0) % Self::P)
    }
}

impl Mul for Bb {
    type Output = Bb;
    fn mul(self, o: Bb) -> Bb {
        Bb(self.0 * o.0 % Self::P)
    }
}
