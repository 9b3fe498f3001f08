// The "did you mean" of every command lives in common/ (the reference service's CLI uses it too).
export { nearest, withDidYouMean } from '../../common/did-you-mean'
